package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.NAMESPACE;
import static dev.kubeheadroom.deploy.Charts.RELEASE;
import static dev.kubeheadroom.deploy.Charts.Rendered.args;
import static dev.kubeheadroom.deploy.Charts.Rendered.container;
import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The operator chart rendered with default and non-default values, asserted on parsed objects. */
class OperatorChartTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> STAGES = List.of("ingest", "topology", "actuator", "webhook");

  static Rendered render(String values) {
    return values.equals("defaults") ? Charts.operator() : Charts.operator(values);
  }

  @Test
  void operatorChartLintsCleanlyInStrictMode() {
    LintResult lint = new Helm(Charts.OPERATOR).lint().strict().call();

    assertThat(lint.isFailed()).as("lint: %s", lint.getMessages()).isFalse();
    assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
  }

  @Test
  void defaultsRunOneDeploymentPerStageWithItsSubcommand() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.deployments()).extracting(d -> d.getMetadata().getName())
        .containsExactlyInAnyOrderElementsOf(STAGES.stream().map(s -> RELEASE + "-" + s).toList());
    for (String stage : STAGES) {
      assertThat(args(rendered.deployment(stage)).get(0)).as(stage).isEqualTo(stage);
    }
    assertThat(rendered.deployment("ingest").getSpec().getReplicas()).isEqualTo(2);
    assertThat(flag(rendered.deployment("ingest"), "--leader-election-lease")).isPresent();
    assertThat(flag(rendered.deployment("topology"), "--leader-election-lease")).isEmpty();
    assertThat(flag(rendered.deployment("topology"), "--state-dir")).isPresent();
  }

  @Test
  void topologyReplicasFollowTheValue() {
    assertThat(Charts.operator("production.yaml").deployment("topology").getSpec().getReplicas()).isEqualTo(6);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"all-in-one.yaml", "all-in-one-production.yaml"})
  void allInOneRendersExactlyOneDeploymentRunningRun(String values) {
    Rendered rendered = Charts.operator(values);

    assertThat(rendered.deployments()).hasSize(1);
    Deployment aio = rendered.deployments().get(0);
    assertThat(args(aio).get(0)).isEqualTo("run");
    // run does every stage's job: the leader Lease, Streams state and the webhook.
    assertThat(flag(aio, "--leader-election-lease")).contains(RELEASE + "-ingest");
    assertThat(flag(aio, "--state-dir")).isPresent();
    assertThat(flag(aio, "--webhook-cert-dir")).isPresent();
    Service webhook = rendered.one(Service.class, RELEASE + "-webhook");
    assertThat(aio.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(webhook.getSpec().getSelector());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"defaults", "production.yaml", "all-in-one.yaml", "all-in-one-production.yaml"})
  void everyContainerHasProbesResourcesAndAHardenedSecurityContext(String values) {
    Rendered rendered = render(values);

    assertThat(rendered.deployments()).isNotEmpty().allSatisfy(d -> {
      PodSpec pod = d.getSpec().getTemplate().getSpec();
      assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
      assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
      assertThat(pod.getInitContainers()).isNullOrEmpty();
      Container c = container(d);
      String name = d.getMetadata().getName();

      assertThat(c.getLivenessProbe().getHttpGet().getPath()).as(name).isEqualTo("/healthz");
      assertThat(c.getReadinessProbe().getHttpGet().getPath()).as(name).isEqualTo("/readyz");
      assertThat(c.getResources().getRequests()).as(name).containsKeys("cpu", "memory");
      assertThat(c.getResources().getLimits()).as(name).containsKey("memory");
      assertThat(Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")))
          .as(name).isGreaterThanOrEqualTo(Quantity.getAmountInBytes(c.getResources().getRequests().get("memory")));

      SecurityContext sc = c.getSecurityContext();
      assertThat(sc.getRunAsNonRoot()).as(name).isTrue();
      assertThat(sc.getReadOnlyRootFilesystem()).as(name).isTrue();
      assertThat(sc.getAllowPrivilegeEscalation()).as(name).isFalse();
      assertThat(sc.getPrivileged()).as(name).isNotEqualTo(Boolean.TRUE);
      assertThat(sc.getCapabilities().getDrop()).as(name).containsExactly("ALL");
      assertThat(sc.getCapabilities().getAdd()).as(name).isNullOrEmpty();
      assertThat(sc.getSeccompProfile().getType()).as(name).isEqualTo("RuntimeDefault");
      // A read-only root needs a writable /tmp (JVM, RocksDB's native library).
      assertThat(c.getVolumeMounts()).extracting(VolumeMount::getMountPath).as(name).contains("/tmp");
    });
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"defaults", "production.yaml", "all-in-one-production.yaml"})
  void everyProbePortAndMountPointsAtSomethingThatExists(String values) {
    Rendered rendered = render(values);

    assertThat(rendered.deployments()).allSatisfy(d -> {
      Container c = container(d);
      Set<String> ports = Set.copyOf(c.getPorts().stream().map(p -> p.getName()).toList());
      assertThat(ports).contains(c.getLivenessProbe().getHttpGet().getPort().getStrVal(),
          c.getReadinessProbe().getHttpGet().getPort().getStrVal());
      List<String> volumes = d.getSpec().getTemplate().getSpec().getVolumes().stream().map(Volume::getName).toList();
      assertThat(volumes).containsAll(c.getVolumeMounts().stream().map(VolumeMount::getName).toList());
    });
  }

  @Test
  void webhookIgnoresFailuresAndOnlySeesPodCreatesInManagedNamespaces() {
    Rendered rendered = Charts.operator();

    MutatingWebhookConfiguration config = rendered.all(MutatingWebhookConfiguration.class).get(0);
    assertThat(rendered.all(MutatingWebhookConfiguration.class)).hasSize(1);
    assertThat(config.getWebhooks()).hasSize(1);
    MutatingWebhook hook = config.getWebhooks().get(0);

    assertThat(hook.getFailurePolicy()).isEqualTo("Ignore");
    assertThat(hook.getSideEffects()).isEqualTo("None");
    assertThat(hook.getTimeoutSeconds()).isBetween(1, 5);
    assertThat(hook.getAdmissionReviewVersions()).containsExactly("v1");
    assertThat(hook.getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getOperations()).containsExactly("CREATE");
      assertThat(rule.getResources()).containsExactly("pods");
      assertThat(rule.getApiGroups()).containsExactly("");
    });
    assertThat(hook.getNamespaceSelector().getMatchLabels())
        .containsExactly(Map.entry("kube-headroom.dev/mode", "managed"));
    assertThat(hook.getNamespaceSelector().getMatchExpressions()).isNullOrEmpty();
    assertThat(hook.getObjectSelector().getMatchExpressions()).singleElement().satisfies(e -> {
      assertThat(e.getKey()).isEqualTo("kube-headroom.dev/mode");
      assertThat(e.getOperator()).isEqualTo("NotIn");
      assertThat(e.getValues()).containsExactly("unmanaged");
    });
    assertThat(hook.getClientConfig().getService().getName()).isEqualTo(RELEASE + "-webhook");
    assertThat(hook.getClientConfig().getService().getNamespace()).isEqualTo(NAMESPACE);
  }

  @Test
  void certManagerIssuesTheWebhookCertThatIsInjectedAndMounted() {
    Rendered rendered = Charts.operator();
    MutatingWebhookConfiguration config = rendered.all(MutatingWebhookConfiguration.class).get(0);

    String inject = config.getMetadata().getAnnotations().get("cert-manager.io/inject-ca-from");
    assertThat(inject).isEqualTo(NAMESPACE + "/" + RELEASE + "-webhook-cert");
    GenericKubernetesResource cert = certificate(rendered, RELEASE + "-webhook-cert");
    JsonNode spec = spec(cert);
    assertThat(spec.get("dnsNames")).extracting(JsonNode::asText)
        .contains(RELEASE + "-webhook." + NAMESPACE + ".svc");
    String issuer = spec.at("/issuerRef/name").asText();
    assertThat(rendered.generic("Issuer")).extracting(i -> i.getMetadata().getName()).contains(issuer);

    String secret = spec.get("secretName").asText();
    Deployment webhook = rendered.deployment("webhook");
    assertThat(webhook.getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getSecret() != null)
        .extracting(v -> v.getSecret().getSecretName())
        .contains(secret);
    assertThat(flag(webhook, "--webhook-cert-dir")).isPresent();
    // The webhook Service routes to the webhook pods' webhook port.
    Service svc = rendered.one(Service.class, RELEASE + "-webhook");
    assertThat(webhook.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(svc.getSpec().getSelector());
    assertThat(svc.getSpec().getPorts()).singleElement()
        .satisfies(p -> assertThat(p.getTargetPort().getStrVal()).isEqualTo("webhook"));
  }

  @Test
  void withoutCertManagerTheWebhookUsesTheGivenSecretAndCaBundle() {
    Rendered rendered = Charts.operator("webhook-own-cert.yaml");

    MutatingWebhookConfiguration config = rendered.all(MutatingWebhookConfiguration.class).get(0);
    assertThat(config.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(config.getWebhooks().get(0).getClientConfig().getCaBundle()).isEqualTo("Y2EtYnVuZGxl");
    assertThat(rendered.generic("Issuer")).isEmpty();
    assertThat(rendered.generic("Certificate")).isEmpty();
    assertThat(rendered.deployment("webhook").getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getSecret() != null)
        .extracting(v -> v.getSecret().getSecretName())
        .containsExactly("my-webhook-tls");
  }

  @Test
  void withoutCertManagerTheWebhookNeedsACertSecret() {
    assertThatThrownBy(() -> Charts.operator("webhook-without-cert.yaml"))
        .hasMessageContaining("webhook.existingCertSecret and webhook.caBundle");
  }

  @Test
  void webhookCanBeTurnedOff() {
    Rendered rendered = Charts.operator("no-webhook.yaml");

    assertThat(rendered.all(MutatingWebhookConfiguration.class)).isEmpty();
    assertThat(rendered.find(Deployment.class, RELEASE + "-webhook")).isEmpty();
    assertThat(rendered.generic("Certificate")).isEmpty();
  }

  @Test
  void kafkaSettingsReachEveryContainerWithDefaults() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.deployments()).allSatisfy(d -> {
      assertThat(flag(d, "--kafka-bootstrap-servers")).contains("kafka-bootstrap.kafka.svc:9092");
      assertThat(flag(d, "--topic-prefix")).contains("headroom.");
      assertThat(flag(d, "--topic-replication-factor")).contains("3");
      assertThat(flag(d, "--topic-min-insync-replicas")).contains("2");
      assertThat(flag(d, "--topic-partitions")).contains("12");
      assertThat(flag(d, "--kafka-client-properties")).isEmpty();
      assertThat(container(d).getEnvFrom()).isNullOrEmpty();
    });
  }

  @Test
  void kafkaSettingsAndClientSecretsReachEveryContainer() {
    Rendered rendered = Charts.operator("production.yaml");

    assertThat(rendered.deployments()).hasSize(4).allSatisfy(d -> {
      assertThat(flag(d, "--kafka-bootstrap-servers")).contains("b-1.kafka.example:9096,b-2.kafka.example:9096");
      assertThat(flag(d, "--topic-prefix")).contains("prod-east.");
      assertThat(flag(d, "--topic-create")).contains("false");
      assertThat(flag(d, "--topic-replication-factor")).contains("5");
      assertThat(flag(d, "--topic-min-insync-replicas")).contains("3");
      assertThat(flag(d, "--topic-partitions")).contains("48");
      assertThat(flag(d, "--topic-retention")).contains("72h");
      // The properties file is read from the mounted Secret.
      String file = flag(d, "--kafka-client-properties").orElseThrow();
      assertThat(file).endsWith("/sasl-ssl.properties");
      String dir = file.substring(0, file.lastIndexOf('/'));
      VolumeMount mount = container(d).getVolumeMounts().stream()
          .filter(m -> m.getMountPath().equals(dir)).findFirst().orElseThrow();
      assertThat(mount.getReadOnly()).isTrue();
      assertThat(d.getSpec().getTemplate().getSpec().getVolumes())
          .filteredOn(v -> v.getName().equals(mount.getName())).singleElement()
          .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("kafka-client-sasl"));
      assertThat(container(d).getEnvFrom()).singleElement()
          .satisfies(e -> assertThat(e.getSecretRef().getName()).isEqualTo("kafka-client-env"));
    });
  }

  @Test
  void podsKnowTheirOwnNameAndNamespace() {
    assertThat(Charts.operator().containers()).allSatisfy(c -> assertThat(c.getEnv())
        .anySatisfy(e -> {
          assertThat(e.getName()).isEqualTo("HEADROOM_POD_NAME");
          assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        })
        .anySatisfy(e -> {
          assertThat(e.getName()).isEqualTo("HEADROOM_POD_NAMESPACE");
          assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        }));
  }

  @Test
  void imageTagDefaultsToTheChartAppVersion() throws IOException {
    Matcher m = Pattern.compile("(?m)^appVersion:\\s*\"?([^\"\\s]+)\"?")
        .matcher(Files.readString(Charts.OPERATOR.resolve("Chart.yaml")));
    assertThat(m.find()).isTrue();

    assertThat(Charts.operator().containers()).extracting(Container::getImage)
        .containsOnly("ghcr.io/karlkfi/kube-headroom:" + m.group(1));
    assertThat(Charts.operator("production.yaml").containers()).extracting(Container::getImage)
        .containsOnly("ghcr.io/karlkfi/kube-headroom:9.9.9-test");
  }

  @Test
  void disruptionBudgetsAndConfigAreOffByDefaultTheNetworkPolicyOn() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.all(PodDisruptionBudget.class)).isEmpty();
    assertThat(rendered.all(NetworkPolicy.class)).hasSize(1);
    assertThat(Charts.operatorSet(Map.of("networkPolicy.enabled", "false")).all(NetworkPolicy.class)).isEmpty();
    assertThat(rendered.generic("HeadroomConfig")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"production.yaml", "all-in-one-production.yaml"})
  void everyDeploymentGetsADisruptionBudgetSelectingItsPods(String values) {
    Rendered rendered = Charts.operator(values);

    assertThat(rendered.all(PodDisruptionBudget.class)).hasSameSizeAs(rendered.deployments());
    assertThat(rendered.deployments()).allSatisfy(d -> {
      PodDisruptionBudget pdb = rendered.one(PodDisruptionBudget.class, d.getMetadata().getName());
      assertThat(pdb.getSpec().getSelector()).isEqualTo(d.getSpec().getSelector());
      assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
    });
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"defaults", "production.yaml"})
  void networkPolicyAdmitsOnlyMetricsHealthAndWebhookPorts(String values) {
    Rendered rendered = values.equals("defaults") ? Charts.operator() : Charts.operator(values);

    NetworkPolicy policy = rendered.all(NetworkPolicy.class).get(0);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    List<Integer> ports = policy.getSpec().getIngress().stream()
        .flatMap(rule -> rule.getPorts().stream()).map(p -> p.getPort().getIntVal()).toList();
    assertThat(ports).containsExactlyInAnyOrder(8443, 8443, 8081, 9443);
    // the API server calls the webhook and the kubelet probes health: neither is a selectable pod
    assertThat(policy.getSpec().getIngress()).filteredOn(r -> r.getPorts().get(0).getPort().getIntVal() != 8443)
        .allSatisfy(r -> assertThat(r.getFrom()).isNullOrEmpty());
    // Metrics only from the selected namespaces, and from the release's own pods (topology instances
    // forward /bookings to each other; explain --live runs in the actuator pod).
    List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer> metricsFrom = policy.getSpec().getIngress()
        .stream().filter(r -> r.getPorts().get(0).getPort().getIntVal() == 8443).flatMap(r -> r.getFrom().stream()).toList();
    assertThat(metricsFrom).hasSize(2);
    assertThat(metricsFrom).filteredOn(from -> from.getNamespaceSelector() != null).singleElement()
        .satisfies(from -> assertThat(from.getNamespaceSelector().getMatchLabels()).containsEntry("metrics", "enabled"));
    assertThat(metricsFrom).filteredOn(from -> from.getPodSelector() != null).singleElement()
        .satisfies(from -> assertThat(from.getPodSelector().getMatchLabels())
            .isEqualTo(policy.getSpec().getPodSelector().getMatchLabels()));
    assertThat(rendered.deployments()).allSatisfy(d -> assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels()));
  }

  @Test
  void headroomConfigCreateRendersTheKeptDryRunSingleton() {
    List<GenericKubernetesResource> configs = Charts.operator("production.yaml").generic("HeadroomConfig");

    assertThat(configs).singleElement().satisfies(c -> {
      assertThat(c.getApiVersion()).isEqualTo("kube-headroom.dev/v1alpha1");
      assertThat(c.getMetadata().getName()).isEqualTo("cluster");
      assertThat(c.getMetadata().getNamespace()).isNull();
      assertThat(c.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
      assertThat(spec(c).get("dryRun").asBoolean(false)).isTrue();
    });
  }

  @Test
  void inconsistentValuesFailToRenderWithAClearMessage() {
    assertThatThrownBy(() -> Charts.operator("metrics-tls-without-cert-manager.yaml"))
        .hasMessageContaining("metrics.certManagerTLS=true needs certmanager.enabled=true");
  }

  // --- helpers ---

  static GenericKubernetesResource certificate(Rendered rendered, String name) {
    return rendered.generic("Certificate").stream()
        .filter(c -> c.getMetadata().getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no Certificate " + name));
  }

  static GenericKubernetesResource serviceMonitor(Rendered rendered) {
    List<GenericKubernetesResource> monitors = rendered.generic("ServiceMonitor");
    assertThat(monitors).hasSize(1);
    return monitors.get(0);
  }

  static JsonNode spec(GenericKubernetesResource resource) {
    return JSON.valueToTree(resource.getAdditionalProperties().get("spec"));
  }
}
