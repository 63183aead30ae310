package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The topology's inputs and output on a real broker, for its real-broker tests. */
final class RealBrokerRecords {
  private RealBrokerRecords() {}

  /** The event on the topic its writer uses (nodes, outcomes, else pods), keyed by its node. */
  static ProducerRecord<String, byte[]> record(Topics topics, NodeEvent e) {
    String topic = e instanceof NodeSnapshot ? topics.nodes() : e instanceof ResizeOutcome ? topics.outcomes()
        : topics.pods();
    return new ProducerRecord<>(topic, e.node(), JsonCodec.encode(e));
  }

  /** A reader of the decisions from their start, {@code read_committed} as the actuator reads them. */
  static KafkaConsumer<String, NodeDecision> committedDecisions(String servers, String group) {
    return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ConsumerConfig.GROUP_ID_CONFIG, group,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), HeadroomSerdes.decisions().deserializer());
  }
}
