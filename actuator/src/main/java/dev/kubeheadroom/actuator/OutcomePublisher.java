package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes {@link ResizeOutcome}s to the {@code outcomes} topic keyed by node (as {@link NodeEvent}s,
 * the topic's value type) and unreadable decisions to the dead-letter topic, through one
 * idempotent {@code acks=all} producer. {@link #flush()} returns only once everything sent is
 * acknowledged, and fails if anything was not: offsets are committed after it, never before.
 */
final class OutcomePublisher implements AutoCloseable {
  private final KafkaProducer<String, byte[]> producer;
  private final Topics topics;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  OutcomePublisher(ActuatorSettings settings) {
    Map<String, Object> config = new HashMap<>(settings.common());
    config.put(ProducerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-outcomes");
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.putAll(settings.clientProperties());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    this.topics = settings.topics();
  }

  void publish(ResizeOutcome outcome) {
    send(topics.outcomes(), outcome.node(),
        HeadroomSerdes.nodeEvents().serialize(topics.outcomes(), outcome));
  }

  void deadLetter(DeadLetter letter) {
    send(topics.deadLetter(), letter.key(),
        HeadroomSerdes.deadLetters().serialize(topics.deadLetter(), letter));
  }

  private void send(String topic, String key, byte[] value) {
    producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> {
      if (e != null) {
        failure.compareAndSet(null, e);
      }
    });
  }

  /**
   * Blocks until every record sent so far is acknowledged or has failed (Kafka away: after the
   * producer's {@code delivery.timeout.ms}); the first failure since the last flush, if any. A
   * failure is reported once: the next flush speaks for the records sent after it.
   */
  Optional<Exception> flush() {
    producer.flush();
    return Optional.ofNullable(failure.getAndSet(null));
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }
}
