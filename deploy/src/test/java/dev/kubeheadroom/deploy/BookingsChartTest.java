package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --live} in every mode: each topology pod advertises its pod IP and metrics port
 * ({@code --application-server}, the IP from the downward API), a Service fronts the topology's
 * bookings, and the actuator pod, where {@code kubectl headroom explain} runs, points at it.
 */
class BookingsChartTest {
  private static final String URL = "https://" + RELEASE + "-bookings." + Charts.NAMESPACE + ".svc:8443";

  @Test
  void byDefaultTheTopologyAdvertisesItsPodIpAndTheActuatorAsksTheBookingsService() {
    Rendered rendered = Charts.operator();

    assertAdvertises(Rendered.container(rendered.deployment("topology")), 8443);
    assertFronts(rendered, "topology", "https-bookings", 8443);
    Container actuator = Rendered.container(rendered.deployment("actuator"));
    assertThat(env(actuator, "HEADROOM_LIVE_URL")).contains(URL);
    // the metrics certificate is self-signed per pod: nothing to check it against
    assertThat(env(actuator, "HEADROOM_LIVE_INSECURE")).contains("true");
    assertThat(env(actuator, "HEADROOM_LIVE_CA_FILE")).isEmpty();
    // only the topology advertises itself; only the actuator explains
    for (String stage : List.of("ingest", "actuator", "webhook")) {
      Container c = Rendered.container(rendered.deployment(stage));
      assertThat(c.getArgs()).as(stage).noneMatch(a -> a.startsWith("--application-server"));
      assertThat(env(c, "HEADROOM_POD_IP")).as(stage).isEmpty();
    }
    assertThat(env(Rendered.container(rendered.deployment("ingest")), "HEADROOM_LIVE_URL")).isEmpty();
  }

  @Test
  void aStatefulSetTopologyAdvertisesItselfTooAndKeepsItsHeadlessService() {
    Rendered rendered = Charts.operatorSet(Map.of("topology.statefulSet.enabled", "true"));

    StatefulSet topology = rendered.one(StatefulSet.class, RELEASE + "-topology");
    assertAdvertises(topology.getSpec().getTemplate().getSpec().getContainers().get(0), 8443);
    assertFronts(rendered, "topology", "https-bookings", 8443);
    assertThat(rendered.one(Service.class, RELEASE + "-topology").getSpec().getClusterIP()).isEqualTo("None");
  }

  @Test
  void allInOneAdvertisesItselfAndAsksItsOwnBookingsService() {
    Rendered rendered = Charts.operator("all-in-one.yaml");

    Container all = Rendered.container(rendered.deployment("all-in-one"));
    assertAdvertises(all, 8443);
    assertThat(env(all, "HEADROOM_LIVE_URL")).contains(URL);
    assertFronts(rendered, "all-in-one", "https-bookings", 8443);
  }

  @Test
  void withCertManagerExplainTrustsTheMetricsCa() {
    Rendered rendered = Charts.operatorSet(Map.of("metrics.certManagerTLS", "true"));

    Container actuator = Rendered.container(rendered.deployment("actuator"));
    assertThat(env(actuator, "HEADROOM_LIVE_CA_FILE")).hasValueSatisfying(v -> assertThat(v).endsWith("/ca.crt"));
    assertThat(env(actuator, "HEADROOM_LIVE_INSECURE")).isEmpty();
    // the certificate's names: MetricsChartTest
  }

  @Test
  void plainHttpMetricsGiveAPlainHttpBookingsUrlOnTheirPort() {
    Rendered rendered = Charts.operatorSet(Map.of("metrics.secure", "false", "metrics.port", "9090"));

    assertAdvertises(Rendered.container(rendered.deployment("topology")), 9090);
    assertFronts(rendered, "topology", "http-bookings", 9090);
    Container actuator = Rendered.container(rendered.deployment("actuator"));
    assertThat(env(actuator, "HEADROOM_LIVE_URL")).contains("http://" + RELEASE + "-bookings." + Charts.NAMESPACE + ".svc:9090");
    assertThat(env(actuator, "HEADROOM_LIVE_INSECURE")).isEmpty();
  }

  /** {@code --application-server=$(HEADROOM_POD_IP):PORT}, the variable from {@code status.podIP}. */
  private static void assertAdvertises(Container c, int port) {
    assertThat(c.getArgs()).contains("--application-server=$(HEADROOM_POD_IP):" + port);
    EnvVar ip = c.getEnv().stream().filter(e -> e.getName().equals("HEADROOM_POD_IP")).findFirst().orElseThrow();
    assertThat(ip.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");
    // defined before anything that refers to it: the kubelet expands $(VAR) in args from the env
    assertThat(c.getEnv()).extracting(EnvVar::getName).contains("HEADROOM_POD_NAME", "HEADROOM_POD_IP");
  }

  private static void assertFronts(Rendered rendered, String component, String portName, int port) {
    Service bookings = rendered.one(Service.class, RELEASE + "-bookings");
    assertThat(bookings.getSpec().getSelector()).containsEntry("app.kubernetes.io/component", component)
        .containsEntry("app.kubernetes.io/instance", RELEASE);
    assertThat(bookings.getSpec().getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo(portName);
      assertThat(p.getPort()).isEqualTo(port);
      assertThat(p.getTargetPort().getStrVal()).isEqualTo("metrics");
    });
  }

  private static Optional<String> env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValue).findFirst();
  }
}
