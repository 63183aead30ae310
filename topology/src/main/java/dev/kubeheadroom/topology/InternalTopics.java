package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicLayout;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The replication of the topology's own topics (the stores' changelogs, which Kafka Streams
 * creates): the same as Headroom's topics. Left to Streams, they would get the broker's {@code
 * default.replication.factor}, 1 unless the operator changed it, and one lost broker would lose
 * the bookings of every node whose changelog partition it held.
 */
public final class InternalTopics {
  private InternalTopics() {}

  /**
   * {@code kafka} plus Streams' {@code replication.factor} and {@code topic.min.insync.replicas}
   * from {@code layout}; a value the client properties already set wins (an operator's override).
   */
  public static KafkaClientSettings replicatedAs(TopicLayout layout, KafkaClientSettings kafka) {
    Map<String, String> merged = new HashMap<>();
    merged.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(layout.replicationFactor()));
    merged.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
        Integer.toString(layout.minInsyncReplicas()));
    merged.putAll(kafka.properties());
    return new KafkaClientSettings(kafka.bootstrapServers(), merged);
  }
}
