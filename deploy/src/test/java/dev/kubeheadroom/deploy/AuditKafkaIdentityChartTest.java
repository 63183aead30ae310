package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code kafka.auditClientProperties}: the read-only Kafka identity of {@code kubectl headroom
 * audit/explain}, mounted only where they run (the actuator or all-in-one pod) and named by
 * {@code HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES}, which the plugin passes on instead of the
 * actuator's own properties file.
 */
class AuditKafkaIdentityChartTest {
  private static final String ENV = "HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES";
  private static final Map<String, String> BOTH_IDENTITIES = Map.of(
      "kafka.clientProperties.secretName", "headroom-kafka",
      "kafka.auditClientProperties.secretName", "headroom-audit-kafka",
      "kafka.auditClientProperties.key", "audit.properties");

  @Test
  void unsetTheCommandsLogInAsTheActuator() {
    Rendered rendered = Charts.operator();

    for (Deployment d : rendered.deployments()) {
      assertThat(env(Rendered.container(d), ENV)).as(d.getMetadata().getName()).isEmpty();
      assertThat(auditVolume(d)).as(d.getMetadata().getName()).isEmpty();
    }
  }

  @Test
  void setOnlyTheActuatorPodGetsTheAuditSecretAndKeepsItsOwnLogin() {
    Rendered rendered = Charts.operatorSet(BOTH_IDENTITIES);

    Deployment actuator = rendered.deployment("actuator");
    Container c = Rendered.container(actuator);
    assertThat(env(c, ENV)).contains("/etc/headroom/audit-kafka/audit.properties");
    assertThat(c.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getName()).isEqualTo("audit-kafka-client");
      assertThat(m.getMountPath()).isEqualTo("/etc/headroom/audit-kafka");
      assertThat(m.getReadOnly()).isTrue();
    });
    assertThat(auditVolume(actuator)).hasValueSatisfying(
        v -> assertThat(v.getSecret().getSecretName()).isEqualTo("headroom-audit-kafka"));
    // the actuator itself still logs in with its own identity
    assertThat(flag(actuator, "--kafka-client-properties")).contains("/etc/headroom/kafka/client.properties");
    for (String stage : new String[] {"ingest", "topology", "webhook"}) {
      Deployment d = rendered.deployment(stage);
      assertThat(env(Rendered.container(d), ENV)).as(stage).isEmpty();
      assertThat(auditVolume(d)).as(stage).isEmpty();
    }
  }

  @Test
  void allInOneGetsItToo() {
    Rendered rendered = Charts.operatorSet(BOTH_IDENTITIES, "all-in-one.yaml");

    Deployment all = rendered.deployment("all-in-one");
    assertThat(env(Rendered.container(all), ENV)).contains("/etc/headroom/audit-kafka/audit.properties");
    assertThat(auditVolume(all)).isPresent();
  }

  @Test
  void withEnvFromSecretTheRenderFailsNamingBothValues() {
    // the pod's HEADROOM_KAFKA_* variables win over any properties file, the audit identity's too
    assertThatThrownBy(() -> Charts.operatorSet(Map.of(
        "kafka.auditClientProperties.secretName", "headroom-audit-kafka", "kafka.envFromSecret", "kafka-sasl")))
        .hasMessageContaining("kafka.auditClientProperties cannot be combined with kafka.envFromSecret");
  }

  private static Optional<String> env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValue).findFirst();
  }

  private static Optional<Volume> auditVolume(Deployment d) {
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    return pod.getVolumes().stream().filter(v -> v.getName().equals("audit-kafka-client")).findFirst();
  }
}
