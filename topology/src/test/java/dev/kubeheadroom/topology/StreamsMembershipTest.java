package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The chart's StatefulSet option reaches Kafka Streams through {@link TopologyRunner#properties}:
 * standby replicas, and static membership on the group's consumers only, as Streams derives each
 * thread's consumer config from the properties.
 */
class StreamsMembershipTest {
  private static final Path STATE = Path.of("/tmp/unused-state");

  private static StreamsConfig config(TopologyRunner.Options options) {
    return new StreamsConfig(TopologyRunner.properties(options,
        TopologySettings.defaults(Topics.defaults()), TopologyListener.NONE));
  }

  @Test
  void defaultsAreDynamicMembershipWithoutStandbys() {
    StreamsConfig config = config(new TopologyRunner.Options("app", KafkaClientSettings.of("k:9092"), STATE));

    assertThat(config.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isZero();
    assertThat(config.getMainConsumerConfigs("app", "c", 0)).doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
  }

  @Test
  void standbysAndAStaticMemberPerStreamThreadNamedAfterThePod() {
    StreamsConfig config = config(
        new TopologyRunner.Options("app", KafkaClientSettings.of("k:9092"), STATE, 1, "kube-headroom-topology-0"));

    assertThat(config.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(1);
    // Streams suffixes the thread index so the instance's threads are distinct members.
    assertThat(config.getMainConsumerConfigs("app", "c", 0))
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "kube-headroom-topology-0-0");
    assertThat(config.getMainConsumerConfigs("app", "c", 1))
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "kube-headroom-topology-0-1");
    // The restore and global consumers join no group: a group.instance.id there would be wrong.
    assertThat(config.getRestoreConsumerConfigs("c")).doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    assertThat(config.getGlobalConsumerConfigs("c")).doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
  }

  @Test
  void clientPropertiesStillWin() {
    KafkaClientSettings kafka = new KafkaClientSettings("k:9092", Map.of(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "2"));
    StreamsConfig config = config(new TopologyRunner.Options("app", kafka, STATE, 1, ""));

    assertThat(config.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(2);
  }
}
