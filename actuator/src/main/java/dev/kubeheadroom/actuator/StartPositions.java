package dev.kubeheadroom.actuator;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits where a replica starts on the partitions it was just assigned. A new group starts at
 * the latest offsets; resolved only in the first owner's consumer, a partition that moved before
 * its first commit was resolved to "latest" again by its next owner, skipping every decision
 * queued in between (GroupHandOverTest). Committing the position an owner resolved from a
 * committed offset writes the same offset again: one request per rebalance.
 */
final class StartPositions {
  private static final Logger LOG = LoggerFactory.getLogger(StartPositions.class);

  private StartPositions() {}

  /** Called from {@code onPartitionsAssigned}, on the consumer's thread. */
  static void commit(Consumer<?, ?> consumer, Collection<TopicPartition> assigned) {
    if (assigned.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
    try {
      assigned.forEach(tp -> start.put(tp, new OffsetAndMetadata(consumer.position(tp))));
      consumer.commitSync(start);
    } catch (RetriableException | CommitFailedException e) {
      // a timeout must not kill the stage from a rebalance callback: as before this commit
      // existed, the next poll (or the next owner) resolves the position itself
      LOG.warn("Could not commit the start positions of {}: {}", assigned, e.getMessage());
    }
  }
}
