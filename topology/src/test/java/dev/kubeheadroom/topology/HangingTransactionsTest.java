package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Which open transactions count as hanging: the fault suite's case (a broker's shutdown completed
 * a commit without its markers: the coordinator at {@code Empty}, the changelog and offsets
 * partitions open at the commit's epoch), and what must never be aborted.
 */
class HangingTransactionsTest {
  private static final String ID = "headroom.topology-7c4f2a8b-1";
  private static final long NOW = 1_796_690_400_000L;
  private static final Duration OLDER_THAN = Duration.ofSeconds(10);
  private static final TopicPartition PODS = new TopicPartition("headroom.topology-headroom-pods-changelog", 1);
  private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 4);

  private static ProducerState open(long producerId, int epoch, long lastTimestamp, long startOffset) {
    return new ProducerState(producerId, epoch, 0, lastTimestamp, OptionalInt.of(0), OptionalLong.of(startOffset));
  }

  private static TransactionDescription coordinator(TransactionState state, Set<TopicPartition> partitions) {
    return new TransactionDescription(1, state, 3, 31, 5_000, OptionalLong.empty(), partitions);
  }

  @Test
  void openPartitionsOfATransactionItsCoordinatorCompletedAreHanging() {
    var hanging = HangingTransactions.hanging(Map.of(3L, ID), Map.of(ID, coordinator(TransactionState.EMPTY, Set.of())),
        Map.of(PODS, List.of(open(3, 27, NOW - 360_000, 15)), OFFSETS, List.of(open(3, 27, NOW - 360_000, 131))),
        NOW, OLDER_THAN);

    assertThat(hanging).extracting(HangingTransactions.Hanging::partition).containsExactly(OFFSETS, PODS);
    assertThat(hanging.get(1).spec().producerEpoch()).isEqualTo((short) 27);
    assertThat(hanging.get(1).startOffset()).isEqualTo(15);
    assertThat(hanging.get(1).command()).isEqualTo("kafka-transactions.sh --bootstrap-server <kafka> abort --topic "
        + PODS.topic() + " --partition 1 --producer-id 3 --producer-epoch 27 --coordinator-epoch 0");
  }

  @Test
  void aTransactionItsCoordinatorStillDrivesIsLeftAlone() {
    for (TransactionState state : List.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT,
        TransactionState.PREPARE_ABORT)) {
      assertThat(HangingTransactions.hanging(Map.of(3L, ID), Map.of(ID, coordinator(state, Set.of(PODS))),
          Map.of(PODS, List.of(open(3, 31, NOW - 60_000, 15))), NOW, OLDER_THAN)).as(state.toString()).isEmpty();
    }
    // ongoing, but over other partitions: this one's records are not its
    assertThat(HangingTransactions.hanging(Map.of(3L, ID), Map.of(ID, coordinator(TransactionState.ONGOING, Set.of(OFFSETS))),
        Map.of(PODS, List.of(open(3, 27, NOW - 60_000, 15))), NOW, OLDER_THAN)).hasSize(1);
  }

  @Test
  void youngTransactionsOtherProducersAndClosedOnesAreLeftAlone() {
    Map<String, TransactionDescription> completed = Map.of(ID, coordinator(TransactionState.COMPLETE_COMMIT, Set.of()));
    // younger than twice the transaction timeout: its marker may be on its way
    assertThat(HangingTransactions.hanging(Map.of(3L, ID), completed,
        Map.of(PODS, List.of(open(3, 27, NOW - 9_000, 15))), NOW, OLDER_THAN)).isEmpty();
    // another application's producer (ingest's, a tenant's)
    assertThat(HangingTransactions.hanging(Map.of(3L, ID), completed,
        Map.of(PODS, List.of(open(8, 2, NOW - 360_000, 15))), NOW, OLDER_THAN)).isEmpty();
    // its coordinator not described (loading after a restart, say): never judged blind
    assertThat(HangingTransactions.hanging(Map.of(3L, ID), Map.of(),
        Map.of(PODS, List.of(open(3, 27, NOW - 360_000, 15))), NOW, OLDER_THAN)).isEmpty();
    // no open transaction on the partition
    assertThat(HangingTransactions.hanging(Map.of(3L, ID), completed,
        Map.of(PODS, List.of(new ProducerState(3, 27, 0, NOW - 360_000, OptionalInt.of(0), OptionalLong.empty()))),
        NOW, OLDER_THAN)).isEmpty();
  }
}
