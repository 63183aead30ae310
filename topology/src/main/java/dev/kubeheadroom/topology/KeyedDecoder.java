package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.SchemaException;
import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Reads a keyed topic's records (node events; the gang topics, §11.6) for the processor {@code
 * target}. A record that cannot be read goes to the dead-letter topic with the reason, and the
 * pipeline goes on: one bad record must never stop a node's history. So does a record without a
 * key or keyed otherwise than its value says ({@code keyOf}): Kafka placed it by that key, so it
 * may sit in another task's partition, and processing it there would split a node (or a gang)
 * between two tasks.
 */
final class KeyedDecoder<T> implements Processor<String, byte[], String, Object> {
  private final Class<T> type;
  private final Function<T, String> keyOf;
  private final String keyName;
  private final String target;
  private final String name;
  private final TopologyListener listener;
  private ProcessorContext<String, Object> context;

  /**
   * @param keyName what {@code keyOf} gives, in a dead letter's reason ({@code the event's node})
   * @param name this processor's name, the dead letter's {@code processor}
   */
  KeyedDecoder(Class<T> type, Function<T, String> keyOf, String keyName, String target, String name,
      TopologyListener listener) {
    this.type = type;
    this.keyOf = keyOf;
    this.keyName = keyName;
    this.target = target;
    this.name = name;
    this.listener = listener;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  @Override
  public void process(Record<String, byte[]> record) {
    T value;
    try {
      value = JsonCodec.decode(record.value(), type);
    } catch (SchemaException e) {
      deadLetter(record, DeadLetter.Kind.UNREADABLE, e.getMessage());
      return;
    }
    String key = keyOf.apply(value);
    if (record.key() == null) {
      deadLetter(record, DeadLetter.Kind.NULL_KEY, "no key; " + keyName + " is " + key);
    } else if (!record.key().equals(key)) {
      deadLetter(record, DeadLetter.Kind.WRONG_KEY,
          "key " + record.key() + " does not match " + keyName + " " + key);
    } else {
      context.forward(record.withValue(value), target);
    }
  }

  private void deadLetter(Record<String, byte[]> record, DeadLetter.Kind kind, String reason) {
    RecordMetadata meta = context.recordMetadata().orElse(null);
    String topic = meta == null ? "" : meta.topic();
    DeadLetter letter = new DeadLetter(topic, meta == null ? -1 : meta.partition(),
        meta == null ? -1 : meta.offset(), record.key(), reason, DeadLetter.payloadOf(record.value()),
        Instant.ofEpochMilli(record.timestamp()), kind, name);
    listener.deadLetter(topic, kind, reason);
    context.forward(record.withValue(letter), HeadroomTopology.DEAD_LETTER_SINK);
  }
}
