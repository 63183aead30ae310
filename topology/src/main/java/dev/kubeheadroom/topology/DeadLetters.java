package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * What the topology's exception handlers share: where dead letters go (Streams' own {@code
 * errors.dead.letter.queue.topic.name}), whom to tell (the {@link TopologyListener}, handed over
 * in the Streams properties under {@link #LISTENER_CONFIG}), and how a failure becomes a
 * {@link DeadLetter} record. {@link TopologyRunner#properties} sets both.
 */
final class DeadLetters {
  /** The Streams property holding the {@link TopologyListener} (an object, not a string). */
  static final String LISTENER_CONFIG = "headroom.topology.listener";

  final String topic;
  final TopologyListener listener;

  private DeadLetters(String topic, TopologyListener listener) {
    this.topic = topic;
    this.listener = listener;
  }

  /** From the configs Kafka hands a handler's {@code configure}. */
  static DeadLetters configured(Map<String, ?> configs) {
    Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    if (!(topic instanceof String name) || name.isEmpty()) {
      throw new IllegalArgumentException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG
          + " must name the dead-letter topic");
    }
    Object listener = configs.get(LISTENER_CONFIG);
    return new DeadLetters(name, listener instanceof TopologyListener l ? l : TopologyListener.NONE);
  }

  /**
   * Counts the failure and makes its dead-letter record.
   *
   * @param key the failing record's key as text, or the node a punctuation failed on
   */
  List<ProducerRecord<byte[], byte[]>> letter(ErrorHandlerContext context, String key,
      DeadLetter.Kind kind, Exception exception) {
    String source = context.topic() == null ? "" : context.topic();
    String reason = describe(exception);
    DeadLetter letter = new DeadLetter(source, context.partition(), context.offset(), key, reason,
        DeadLetter.payloadOf(context.sourceRawValue()),
        Instant.ofEpochMilli(Math.max(0, context.timestamp())), kind, context.processorNodeId());
    listener.deadLetter(source, kind, reason);
    byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
    return List.of(new ProducerRecord<>(topic, null, keyBytes, JsonCodec.encode(letter)));
  }

  /** The source record's key as text (null without one). */
  static String rawKey(ErrorHandlerContext context) {
    byte[] raw = context.sourceRawKey();
    return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
  }

  /** {@code ExceptionClass: message}, with the root cause's when it differs. */
  static String describe(Throwable e) {
    String text = e.getClass().getName() + ": " + e.getMessage();
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == e || e instanceof NodeFailure ? text
        : text + " (caused by " + root.getClass().getName() + ": " + root.getMessage() + ")";
  }
}
