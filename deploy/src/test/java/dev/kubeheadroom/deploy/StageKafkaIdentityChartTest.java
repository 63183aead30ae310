package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code <stage>.kafka.clientProperties}: each split stage logs in as a Kafka principal of its own
 * (the ACL rows of {@code KafkaAcls}), mounting its own Secret where set and the release's
 * {@code kafka.clientProperties} otherwise.
 */
class StageKafkaIdentityChartTest {
  private static final List<String> STAGES = List.of("ingest", "topology", "actuator", "webhook");
  private static final String SHARED = "headroom-kafka";

  @Test
  void eachStageMountsItsOwnSecretAndNamesItsOwnKey() {
    Map<String, String> sets = new HashMap<>(Map.of("kafka.clientProperties.secretName", SHARED));
    for (String stage : STAGES) {
      sets.put(stage + ".kafka.clientProperties.secretName", "kafka-" + stage);
      sets.put(stage + ".kafka.clientProperties.key", stage + ".properties");
    }
    Rendered rendered = Charts.operatorSet(sets);

    for (String stage : STAGES) {
      assertThat(kafkaSecret(pod(rendered, stage))).as(stage).contains("kafka-" + stage);
      assertThat(Rendered.flag(rendered.deployment(stage), "--kafka-client-properties"))
          .as(stage).contains("/etc/headroom/kafka/" + stage + ".properties");
    }
  }

  @Test
  void anUnsetStageFallsBackToTheReleaseSecret() {
    Rendered rendered = Charts.operatorSet(Map.of(
        "kafka.clientProperties.secretName", SHARED,
        "actuator.kafka.clientProperties.secretName", "kafka-actuator"));

    assertThat(kafkaSecret(pod(rendered, "actuator"))).contains("kafka-actuator");
    for (String stage : List.of("ingest", "topology", "webhook")) {
      assertThat(kafkaSecret(pod(rendered, stage))).as(stage).contains(SHARED);
      assertThat(Rendered.flag(rendered.deployment(stage), "--kafka-client-properties"))
          .as(stage).contains("/etc/headroom/kafka/client.properties");
    }
  }

  @Test
  void aStageSecretAloneNeedsNoReleaseSecret() {
    Rendered rendered = Charts.operatorSet(Map.of("ingest.kafka.clientProperties.secretName", "kafka-ingest"));

    assertThat(kafkaSecret(pod(rendered, "ingest"))).contains("kafka-ingest");
    assertThat(kafkaSecret(pod(rendered, "topology"))).isEmpty();
    assertThat(Rendered.flag(rendered.deployment("topology"), "--kafka-client-properties")).isEmpty();
  }

  @Test
  void theTopologyStatefulSetMountsTheTopologySecret() {
    Rendered rendered = Charts.operatorSet(Map.of(
        "kafka.clientProperties.secretName", SHARED,
        "topology.statefulSet.enabled", "true",
        "topology.kafka.clientProperties.secretName", "kafka-topology"));

    StatefulSet topology = rendered.one(StatefulSet.class, Charts.RELEASE + "-topology");
    assertThat(kafkaSecret(topology.getSpec().getTemplate().getSpec())).contains("kafka-topology");
  }

  @Test
  void allInOneRefusesAStageSecretInOneLine() {
    assertThatThrownBy(() -> Charts.operatorSet(
        Map.of("allInOne.enabled", "true", "webhook.kafka.clientProperties.secretName", "kafka-webhook")))
        .hasMessageContaining("webhook.kafka.clientProperties needs the split stages");
  }

  @Test
  void withEnvFromSecretTheRenderFailsNamingBothValues() {
    // the pod's HEADROOM_KAFKA_* variables win over any properties file, a stage's too
    assertThatThrownBy(() -> Charts.operatorSet(
        Map.of("topology.kafka.clientProperties.secretName", "kafka-topology", "kafka.envFromSecret", "kafka-sasl")))
        .hasMessageContaining("topology.kafka.clientProperties cannot be combined with kafka.envFromSecret");
  }

  private static PodSpec pod(Rendered rendered, String stage) {
    return rendered.deployment(stage).getSpec().getTemplate().getSpec();
  }

  private static Optional<String> kafkaSecret(PodSpec pod) {
    return pod.getVolumes().stream()
        .filter(v -> v.getName().equals("kafka-client"))
        .map(Volume::getSecret)
        .map(s -> s.getSecretName())
        .findFirst();
  }
}
