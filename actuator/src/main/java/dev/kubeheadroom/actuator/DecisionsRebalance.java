package dev.kubeheadroom.actuator;

import java.util.Collection;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decisions consumer's rebalance callbacks (on the actuator's loop thread, inside its poll):
 * what is handled is committed before a partition leaves and its pending changes are dropped; an
 * assigned partition's start position is fixed before the actuator says it is ready.
 */
final class DecisionsRebalance implements ConsumerRebalanceListener {
  private static final Logger LOG = LoggerFactory.getLogger(Actuator.class);

  private final org.apache.kafka.clients.consumer.Consumer<?, ?> consumer;
  private final Coalescer coalescer;
  private final OutcomePublisher publisher;
  private final Consumer<Map<TopicPartition, OffsetAndMetadata>> commit;
  private final Runnable assigned;

  /**
   * {@code commit}: the actuator's commit of handled offsets; {@code assigned}: run after each
   * assignment, even an empty one.
   */
  DecisionsRebalance(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer, Coalescer coalescer,
      OutcomePublisher publisher, Consumer<Map<TopicPartition, OffsetAndMetadata>> commit, Runnable assigned) {
    this.consumer = consumer;
    this.coalescer = coalescer;
    this.publisher = publisher;
    this.commit = commit;
    this.assigned = assigned;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    try {
      if (publisher.flush().isEmpty()) {
        commit.accept(coalescer.committable(partitions));
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not commit revoked partitions {}: {}", partitions, e.getMessage());
    }
    coalescer.revoke(partitions);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    LOG.info("Assigned decisions partitions {}", partitions);
    StartPositions.commit(consumer, partitions); // a new group's "latest" is fixed now, before ready
    assigned.run(); // (also after an empty assignment: a spare replica is ready too)
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    coalescer.revoke(partitions);
  }
}
