package dev.kubeheadroom.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * Drops Kafka Streams' per-processor-node meters ({@code kafka_stream_processor_node_*}, tagged
 * {@code processor_node_id}): one series per processor per task per metric, dozens per partition,
 * and nothing an operator acts on; the thread, task and state-store meters stay.
 */
final class KafkaStreamsMeterFilter {
  /** Micrometer's name for the {@code stream-processor-node-metrics} group. */
  static final String PROCESSOR_NODE_PREFIX = "kafka.stream.processor.node";
  /** The tag every processor-node meter carries (Kafka's {@code processor-node-id}). */
  static final String PROCESSOR_NODE_TAG = "processor.node.id";

  static final MeterFilter DENY_PER_PROCESSOR = MeterFilter.deny(KafkaStreamsMeterFilter::perProcessor);

  private KafkaStreamsMeterFilter() {}

  static boolean perProcessor(Meter.Id id) {
    return id.getName().startsWith(PROCESSOR_NODE_PREFIX) || id.getTag(PROCESSOR_NODE_TAG) != null;
  }
}
