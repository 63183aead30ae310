package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.SchemaException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Reads node-keyed records. A record that cannot be read goes to the dead-letter topic with the
 * reason, and the pipeline goes on: one bad record must never stop a node's history.
 */
final class EventDecoder implements Processor<String, byte[], String, Object> {
  private final TopologyListener listener;
  private ProcessorContext<String, Object> context;

  EventDecoder(TopologyListener listener) {
    this.listener = listener;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  @Override
  public void process(Record<String, byte[]> record) {
    String reason;
    try {
      NodeEvent event = JsonCodec.decode(record.value(), NodeEvent.class);
      if (record.key() == null || record.key().equals(event.node())) {
        context.forward(record.withKey(event.node()).withValue(event), HeadroomTopology.BOOKING);
        return;
      }
      reason = "key " + record.key() + " does not match the event's node " + event.node();
    } catch (SchemaException e) {
      reason = e.getMessage();
    }
    RecordMetadata meta = context.recordMetadata().orElse(null);
    String topic = meta == null ? "" : meta.topic();
    String payload = record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
    DeadLetter letter = new DeadLetter(topic, meta == null ? -1 : meta.partition(),
        meta == null ? -1 : meta.offset(), record.key(), reason, payload,
        Instant.ofEpochMilli(record.timestamp()));
    listener.deadLetter(topic, reason);
    context.forward(record.withValue(letter), HeadroomTopology.DEAD_LETTER_SINK);
  }
}
