package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.SchemaException;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Reads node-keyed records. A record that cannot be read goes to the dead-letter topic with the
 * reason, and the pipeline goes on: one bad record must never stop a node's history. So does a
 * record without a key or keyed by another node than its event's: Kafka placed it by that key,
 * so it may sit in another task's partition than the node's history, and booking it there would
 * split the node between two tasks.
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
    NodeEvent event;
    try {
      event = JsonCodec.decode(record.value(), NodeEvent.class);
    } catch (SchemaException e) {
      deadLetter(record, DeadLetter.Kind.UNREADABLE, e.getMessage());
      return;
    }
    if (record.key() == null) {
      deadLetter(record, DeadLetter.Kind.NULL_KEY, "no key; the event's node is " + event.node());
    } else if (!record.key().equals(event.node())) {
      deadLetter(record, DeadLetter.Kind.WRONG_KEY,
          "key " + record.key() + " does not match the event's node " + event.node());
    } else {
      context.forward(record.withValue(event), HeadroomTopology.BOOKING);
    }
  }

  private void deadLetter(Record<String, byte[]> record, DeadLetter.Kind kind, String reason) {
    RecordMetadata meta = context.recordMetadata().orElse(null);
    String topic = meta == null ? "" : meta.topic();
    DeadLetter letter = new DeadLetter(topic, meta == null ? -1 : meta.partition(),
        meta == null ? -1 : meta.offset(), record.key(), reason, DeadLetter.payloadOf(record.value()),
        Instant.ofEpochMilli(record.timestamp()), kind, HeadroomTopology.DECODE);
    listener.deadLetter(topic, kind, reason);
    context.forward(record.withValue(letter), HeadroomTopology.DEAD_LETTER_SINK);
  }
}
