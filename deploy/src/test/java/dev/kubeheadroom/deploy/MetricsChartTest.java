package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.NAMESPACE;
import static dev.kubeheadroom.deploy.Charts.RELEASE;
import static dev.kubeheadroom.deploy.Charts.Rendered.args;
import static dev.kubeheadroom.deploy.Charts.Rendered.container;
import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static dev.kubeheadroom.deploy.OperatorChartTest.STAGES;
import static dev.kubeheadroom.deploy.OperatorChartTest.certificate;
import static dev.kubeheadroom.deploy.OperatorChartTest.render;
import static dev.kubeheadroom.deploy.OperatorChartTest.serviceMonitor;
import static dev.kubeheadroom.deploy.OperatorChartTest.spec;
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

/** The chart's metrics endpoints: TLS by default or from cert-manager, and the ServiceMonitor that scrapes them. */
class MetricsChartTest {
  @Test
  void metricsSelfSignByDefaultAndTheServiceMonitorIsOff() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.containers()).allSatisfy(c -> {
      assertThat(c.getArgs()).noneMatch(a -> a.startsWith("--metrics-cert-path"));
      assertThat(c.getArgs()).contains("--metrics-port=8443");
    });
    assertThat(rendered.generic("ServiceMonitor")).isEmpty();
    assertThat(rendered.find(GenericKubernetesResource.class, RELEASE + "-metrics-cert")).isEmpty();
  }

  @Test
  void metricsNeedAKubernetesTokenByDefaultAndTheServiceMonitorSendsPrometheusOwn() {
    assertThat(Charts.operator().containers())
        .allSatisfy(c -> assertThat(c.getArgs()).contains("--metrics-auth=kubernetes"));

    JsonNode endpoint = spec(serviceMonitor(Charts.operator("production.yaml"))).at("/endpoints/0");
    assertThat(endpoint.get("bearerTokenFile").asText())
        .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/token");
    assertThat(endpoint.get("scheme").asText()).isEqualTo("https");

    JsonNode open = spec(serviceMonitor(Charts.operatorSet(Map.of("metrics.auth", "none"), "production.yaml")))
        .at("/endpoints/0");
    assertThat(open.has("bearerTokenFile")).isFalse();
  }

  @Test
  void certManagerMetricsTlsMountsTheCertAndTheServiceMonitorVerifiesItsCa() {
    Rendered rendered = Charts.operator("production.yaml");

    GenericKubernetesResource cert = certificate(rendered, RELEASE + "-metrics-cert");
    String secret = spec(cert).get("secretName").asText();
    assertThat(secret).isEqualTo("metrics-server-cert");
    assertThat(spec(cert).get("dnsNames")).extracting(JsonNode::asText).containsExactlyInAnyOrder(
        RELEASE + "-metrics." + NAMESPACE + ".svc", RELEASE + "-metrics." + NAMESPACE + ".svc.cluster.local",
        // the topology's bookings Service, on the same port
        RELEASE + "-bookings." + NAMESPACE + ".svc", RELEASE + "-bookings." + NAMESPACE + ".svc.cluster.local");
    assertThat(rendered.deployments()).allSatisfy(d -> {
      String path = flag(d, "--metrics-cert-path").orElseThrow();
      Container c = container(d);
      VolumeMount mount = c.getVolumeMounts().stream()
          .filter(m -> m.getMountPath().equals(path)).findFirst().orElseThrow();
      assertThat(d.getSpec().getTemplate().getSpec().getVolumes())
          .filteredOn(v -> v.getName().equals(mount.getName()))
          .singleElement().satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo(secret));
    });

    JsonNode endpoint = spec(serviceMonitor(rendered)).at("/endpoints/0");
    assertThat(endpoint.get("scheme").asText()).isEqualTo("https");
    JsonNode tls = endpoint.get("tlsConfig");
    assertThat(tls.get("insecureSkipVerify").asBoolean(true)).isFalse();
    assertThat(tls.at("/ca/secret/name").asText()).isEqualTo(secret);
    assertThat(tls.at("/ca/secret/key").asText()).isEqualTo("ca.crt");
    assertThat(tls.get("serverName").asText()).isEqualTo(RELEASE + "-metrics." + NAMESPACE + ".svc");
    assertThat(serviceMonitor(rendered).getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
  }

  @Test
  void serviceMonitorWithoutCertManagerTlsSkipsVerification() {
    Rendered rendered = Charts.operator("all-in-one.yaml", "prometheus-only.yaml");

    JsonNode tls = spec(serviceMonitor(rendered)).at("/endpoints/0/tlsConfig");
    assertThat(tls.get("insecureSkipVerify").asBoolean(false)).isTrue();
    assertThat(tls.has("ca")).isFalse();
  }

  @Test
  void serviceMonitorSelectsTheMetricsServiceWhichSelectsEveryHeadroomPod() {
    Rendered rendered = Charts.operator("production.yaml");

    Service metrics = rendered.one(Service.class, RELEASE + "-metrics");
    JsonNode selector = spec(serviceMonitor(rendered)).at("/selector/matchLabels");
    selector.properties().forEach(e ->
        assertThat(metrics.getMetadata().getLabels()).containsEntry(e.getKey(), e.getValue().asText()));
    assertThat(spec(serviceMonitor(rendered)).at("/endpoints/0/port").asText())
        .isIn(metrics.getSpec().getPorts().stream().map(p -> p.getName()).toList());
    // headroom_pod_{target,applied_limit}_cores{namespace,pod} name the managed pod, not the scrape target
    assertThat(spec(serviceMonitor(rendered)).at("/endpoints/0/honorLabels").asBoolean()).isTrue();
    assertThat(rendered.deployments()).hasSize(4).allSatisfy(d ->
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
            .containsAllEntriesOf(metrics.getSpec().getSelector()));
  }
}
