package dev.kubeheadroom.actuator;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this replica's share of the global client QPS ({@link RateBudget#share}) equal to the
 * fraction of the decisions partitions it owns, updated at every rebalance; the listener it wraps
 * runs first. Why partitions rather than "1 / live members": the shares of the group add up to
 * exactly 1 whatever the member count, a spare replica with no partitions takes nothing from
 * the busy ones, and no extra Kafka call is needed. A partition is revoked before it is assigned
 * elsewhere (eager and cooperative rebalancing alike), so the shares never add up to more than 1.
 * The cost: the split follows partitions, not load, so a replica whose partitions are quiet
 * leaves its share unused (with many partitions per replica, little).
 */
final class GroupShare implements ConsumerRebalanceListener {
  private static final Logger LOG = LoggerFactory.getLogger(GroupShare.class);

  private final ConsumerRebalanceListener inner;
  private final RateBudget budget;
  private final IntSupplier topicPartitions;
  private final Set<TopicPartition> owned = new HashSet<>();
  /** The partition count last read; 0 until one read succeeds. */
  private int knownPartitions;

  /** {@code topicPartitions}: the decisions topic's partition count now (the consumer's metadata). */
  GroupShare(ConsumerRebalanceListener inner, RateBudget budget, IntSupplier topicPartitions) {
    this.inner = inner;
    this.budget = budget;
    this.topicPartitions = topicPartitions;
  }

  /** Subscribes {@code consumer} to {@code topic}, keeping {@code budget}'s share up to date. */
  static void subscribe(Consumer<?, ?> consumer, String topic, ConsumerRebalanceListener inner, RateBudget budget) {
    consumer.subscribe(List.of(topic), new GroupShare(inner, budget, () -> {
      List<?> partitions = consumer.partitionsFor(topic);
      return partitions == null ? 0 : partitions.size();
    }));
  }

  /** The share for {@code owned} of {@code total} partitions; all of it while the count is unknown. */
  static double of(int owned, int total) {
    return total <= 0 ? 1.0 : Math.min(1.0, (double) owned / total);
  }

  /**
   * The partition count now, or the last one read when the lookup fails transiently: a metadata
   * fetch timing out while a broker restarts must not kill the stage from inside a rebalance
   * (it did, in the broker-restart test), and the count changes only when partitions are added.
   */
  private int partitions() {
    try {
      int now = topicPartitions.getAsInt();
      if (now > 0) {
        knownPartitions = now;
      }
    } catch (RetriableException e) {
      LOG.warn("Could not read the decisions topic's partition count ({}); using the last one read, {}",
          e.getMessage(), knownPartitions);
    }
    return knownPartitions;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    inner.onPartitionsRevoked(partitions);
    owned.removeAll(partitions);
    update();
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    owned.addAll(partitions);
    update(); // before the inner listener marks the actuator ready
    inner.onPartitionsAssigned(partitions);
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    inner.onPartitionsLost(partitions);
    owned.removeAll(partitions);
    update();
  }

  private void update() {
    int total = partitions();
    if (total <= 0) {
      // never read: keep the share we have (the next rebalance tries again) rather than take all
      LOG.warn("Client QPS share kept at {}: the decisions topic's partition count is unknown", budget.share());
      return;
    }
    double share = of(owned.size(), total);
    if (share != budget.share()) {
      LOG.info("Client QPS share {}/{} of the decisions partitions: {}", owned.size(), total, share);
      budget.share(share);
    }
  }
}
