package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.SchemaException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polled decision records into the {@link Coalescer}: each record is decoded once; one that
 * cannot be read is dead-lettered and skipped (its offset still counts as handled), so a bad
 * record never stops the partition behind it.
 */
final class DecisionIntake {
  private static final Logger LOG = LoggerFactory.getLogger(DecisionIntake.class);

  private final Coalescer coalescer;
  private final OutcomePublisher publisher;
  private final ActuatorMetrics metrics;
  private final Clock clock;

  DecisionIntake(Coalescer coalescer, OutcomePublisher publisher, ActuatorMetrics metrics, Clock clock) {
    this.coalescer = coalescer;
    this.publisher = publisher;
    this.metrics = metrics;
    this.clock = clock;
  }

  void take(Iterable<ConsumerRecord<String, byte[]>> records) {
    for (ConsumerRecord<String, byte[]> record : records) {
      TopicPartition tp = new TopicPartition(record.topic(), record.partition());
      NodeDecision decision;
      try {
        decision = HeadroomSerdes.decisions().deserialize(record.topic(), record.value());
      } catch (SchemaException | IllegalArgumentException e) {
        decision = null;
        deadLetter(record, e.getMessage());
      }
      if (decision == null) {
        coalescer.skip(tp, record.offset());
      } else {
        coalescer.add(tp, record.offset(), decision);
      }
    }
  }

  private void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
    LOG.warn("Unreadable decision at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), reason);
    metrics.deadLetter();
    String value = record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
    publisher.deadLetter(new DeadLetter(record.topic(), record.partition(), record.offset(),
        record.key(), reason, value, clock.instant()));
  }
}
