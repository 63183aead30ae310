package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.args;
import static dev.kubeheadroom.deploy.Charts.Rendered.container;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The operator chart's Helm conventions: ServiceAccounts, extra args and env, selectors, dashboard. */
class ChartConventionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void serviceAccountsAreCreatedPerStageAndTheBindingsNameThem() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.all(ServiceAccount.class)).extracting(sa -> sa.getMetadata().getName())
        .containsExactlyInAnyOrder("kube-headroom-ingest", "kube-headroom-topology", "kube-headroom-actuator",
            "kube-headroom-webhook");
    assertThat(subjects(rendered)).allMatch(s -> s.getName().startsWith("kube-headroom-"));
  }

  @Test
  void serviceAccountNameIsThePrefixOfEveryStageAccountAndCreateFalseMakesNone() {
    Rendered rendered = Charts.operatorSet(Map.of("serviceAccount.create", "false", "serviceAccount.name", "platform"));

    assertThat(rendered.all(ServiceAccount.class)).isEmpty();
    assertThat(rendered.deployments()).allSatisfy(d -> assertThat(d.getSpec().getTemplate().getSpec()
        .getServiceAccountName()).isEqualTo("platform-" + component(d)));
    // every stage asks for the metrics port's token reviews; ingest and actuator call the API too
    assertThat(subjects(rendered)).extracting(Subject::getName)
        .containsOnly("platform-ingest", "platform-actuator", "platform-topology", "platform-webhook");
  }

  @Test
  void extraArgsAndExtraEnvReachEveryContainerAfterTheChartsOwn() {
    Rendered rendered = Charts.operatorSet(Map.of(
        "extraArgs[0]", "--topic-retention=72h",
        "extraEnv[0].name", "TZ", "extraEnv[0].value", "UTC"));

    assertThat(rendered.deployments()).allSatisfy(d -> {
      List<String> args = args(d);
      assertThat(args.get(args.size() - 1)).isEqualTo("--topic-retention=72h");
      List<EnvVar> env = container(d).getEnv();
      assertThat(env.get(env.size() - 1)).isEqualTo(new EnvVar("TZ", "UTC", null));
      assertThat(env).extracting(EnvVar::getName).contains("HEADROOM_POD_NAME", "JAVA_TOOL_OPTIONS");
    });
  }

  @Test
  void webhookNamespaceSelectorDefaultsToManagedNamespacesAndFollowsTheValue() {
    MutatingWebhookConfiguration defaults = webhook(Charts.operator());
    assertThat(defaults.getWebhooks().get(0).getNamespaceSelector().getMatchLabels())
        .isEqualTo(Map.of("kube-headroom.dev/mode", "managed"));

    MutatingWebhookConfiguration custom = webhook(Charts.operatorSet(Map.of(
        "webhook.namespaceSelector.matchLabels", "null",
        "webhook.namespaceSelector.matchExpressions[0].key", "tenant",
        "webhook.namespaceSelector.matchExpressions[0].operator", "Exists")));
    var selector = custom.getWebhooks().get(0).getNamespaceSelector();
    assertThat(selector.getMatchLabels()).isNullOrEmpty();
    assertThat(selector.getMatchExpressions()).extracting(LabelSelectorRequirement::getKey, LabelSelectorRequirement::getOperator)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("tenant", "Exists"));
  }

  @Test
  void grafanaDashboardIsAConfigMapWithTheSidecarLabelAndTheRepositorysDashboard() throws IOException {
    assertThat(Charts.operator().all(ConfigMap.class)).isEmpty();

    Rendered rendered = Charts.operatorSet(Map.of("grafanaDashboard.enabled", "true",
        "grafanaDashboard.namespace", "monitoring", "grafanaDashboard.annotations.grafana_folder", "Headroom"));
    ConfigMap dashboard = rendered.one(ConfigMap.class, "kube-headroom-dashboard");

    assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("monitoring");
    assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
    assertThat(dashboard.getMetadata().getAnnotations()).containsEntry("grafana_folder", "Headroom");
    JsonNode shipped = JSON.readTree(dashboard.getData().get("headroom.json"));
    JsonNode repository = JSON.readTree(Files.readString(Charts.DEPLOY.resolve("../dashboards/headroom.json")));
    assertThat(shipped).isEqualTo(repository);
    assertThat(shipped.get("uid").asText()).isEqualTo("kube-headroom");
  }

  private static MutatingWebhookConfiguration webhook(Rendered rendered) {
    return rendered.one(MutatingWebhookConfiguration.class, "kube-headroom");
  }

  private static List<Subject> subjects(Rendered rendered) {
    return Stream.concat(
        rendered.all(ClusterRoleBinding.class).stream().flatMap(b -> b.getSubjects().stream()),
        rendered.all(RoleBinding.class).stream().flatMap(b -> b.getSubjects().stream())).toList();
  }

  private static String component(Deployment deployment) {
    return deployment.getMetadata().getLabels().get("app.kubernetes.io/component");
  }
}
