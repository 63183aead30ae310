package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class GroupShareTest {
  private static final String TOPIC = "headroom.decisions";
  private final List<String> calls = new ArrayList<>();
  private final RateBudget budget = new RateBudget(RateLimits.DEFAULTS, () -> 0L);
  private final GroupShare share = new GroupShare(new Recording(), budget, () -> 6);

  @Test
  void theShareFollowsThePartitionsOwnedThroughRebalances() {
    share.onPartitionsAssigned(partitions(0, 1));
    assertThat(budget.share()).isEqualTo(2.0 / 6);

    share.onPartitionsAssigned(partitions(2)); // cooperative: only the new one is named
    assertThat(budget.share()).isEqualTo(3.0 / 6);

    share.onPartitionsRevoked(partitions(0, 1));
    assertThat(budget.share()).isEqualTo(1.0 / 6);

    share.onPartitionsLost(partitions(2));
    assertThat(budget.share()).isZero();
    assertThat(calls).containsExactly("assigned 2", "assigned 1", "revoked 2", "lost 1");
  }

  @Test
  void theWholeBudgetWhileThePartitionCountIsUnknown() {
    assertThat(GroupShare.of(0, 0)).isEqualTo(1.0);
    assertThat(GroupShare.of(4, 4)).isEqualTo(1.0);
    assertThat(GroupShare.of(1, 4)).isEqualTo(0.25);
  }

  // A metadata fetch timing out while a broker restarted escaped onPartitionsRevoked and the
  // actuator exited. The count changes only when partitions are added: the last one read serves.
  @Test
  void aMetadataTimeoutInARebalanceKeepsTheLastPartitionCount() {
    AtomicBoolean brokerDown = new AtomicBoolean();
    GroupShare flaky = new GroupShare(new Recording(), budget, () -> {
      if (brokerDown.get()) {
        throw new TimeoutException("Timeout expired while fetching topic metadata");
      }
      return 6;
    });
    flaky.onPartitionsAssigned(partitions(0, 1, 2));
    assertThat(budget.share()).isEqualTo(3.0 / 6);

    brokerDown.set(true);
    flaky.onPartitionsRevoked(partitions(0)); // no exception
    assertThat(budget.share()).isEqualTo(2.0 / 6);
    flaky.onPartitionsAssigned(partitions(3, 4));
    assertThat(budget.share()).isEqualTo(4.0 / 6);
    assertThat(calls).containsExactly("assigned 3", "revoked 1", "assigned 2");
  }

  @Test
  void aCountNeverReadKeepsTheShareUntilARebalanceReadsIt() {
    AtomicBoolean brokerDown = new AtomicBoolean(true);
    GroupShare flaky = new GroupShare(new Recording(), budget, () -> {
      if (brokerDown.get()) {
        throw new TimeoutException("Timeout expired while fetching topic metadata");
      }
      return 6;
    });
    budget.share(0.5);
    flaky.onPartitionsAssigned(partitions(0));
    assertThat(budget.share()).isEqualTo(0.5);

    brokerDown.set(false);
    flaky.onPartitionsAssigned(partitions(1));
    assertThat(budget.share()).isEqualTo(2.0 / 6);
  }

  private static List<TopicPartition> partitions(int... numbers) {
    List<TopicPartition> out = new ArrayList<>();
    for (int n : numbers) {
      out.add(new TopicPartition(TOPIC, n));
    }
    return out;
  }

  private final class Recording implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      calls.add("revoked " + partitions.size());
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      calls.add("assigned " + partitions.size());
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      calls.add("lost " + partitions.size());
    }
  }
}
