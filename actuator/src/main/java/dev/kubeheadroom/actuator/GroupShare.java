package dev.kubeheadroom.actuator;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
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

  /** {@code topicPartitions}: the decisions topic's partition count now (the consumer's metadata). */
  GroupShare(ConsumerRebalanceListener inner, RateBudget budget, IntSupplier topicPartitions) {
    this.inner = inner;
    this.budget = budget;
    this.topicPartitions = topicPartitions;
  }

  /** Subscribes {@code consumer} to {@code topic}, keeping {@code budget}'s share up to date. */
  static void subscribe(Consumer<?, ?> consumer, String topic, ConsumerRebalanceListener inner, RateBudget budget) {
    consumer.subscribe(List.of(topic), new GroupShare(inner, budget, () -> consumer.partitionsFor(topic).size()));
  }

  /** The share for {@code owned} of {@code total} partitions; all of it while the count is unknown. */
  static double of(int owned, int total) {
    return total <= 0 ? 1.0 : Math.min(1.0, (double) owned / total);
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
    int total = topicPartitions.getAsInt();
    double share = of(owned.size(), total);
    if (share != budget.share()) {
      LOG.info("Client QPS share {}/{} of the decisions partitions: {}", owned.size(), total, share);
      budget.share(share);
    }
  }
}
