package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class CoalescerTest {
  private static final TopicPartition P0 = new TopicPartition("decisions", 0);
  private static final TopicPartition P1 = new TopicPartition("decisions", 1);
  private final Coalescer coalescer = new Coalescer();

  @Test
  void keepsOnlyTheNewestTargetPerPod() {
    // given two decisions for the same pod
    coalescer.add(P0, 10, decision("n1", false, change("u1", "ns", "web", 1000, 2000)));
    coalescer.add(P0, 11, decision("n1", false, change("u1", "ns", "web", 1000, 3000)));
    // when
    List<PodWork> ready = coalescer.ready(0);
    // then
    assertThat(ready).singleElement().satisfies(w -> {
      assertThat(w.change().targetMilli()).isEqualTo(3000);
      assertThat(w.offset()).isEqualTo(11);
    });
  }

  @Test
  void commitsNothingUntilEveryChangeOfARecordIsHandled() {
    // given one record with two pods
    coalescer.add(P0, 5, decision("n1", false,
        change("u1", "ns", "a", 1000, 2000), change("u2", "ns", "b", 1000, 2000)));
    List<PodWork> ready = coalescer.ready(0);
    // when only the first is handled
    coalescer.handled(ready.get(0));
    // then the record is not committable
    assertThat(coalescer.committable()).isEmpty();
    // when the second is handled too
    coalescer.handled(ready.get(1));
    // then the next offset is
    assertThat(coalescer.committable()).containsEntry(P0, new OffsetAndMetadata(6));
  }

  @Test
  void aSupersededChangeCountsAsHandledOnceItsSuccessorIs() {
    // given pod u1 at offset 1, pod u2 at 2, pod u1 again at 3
    coalescer.add(P0, 1, decision("n1", false, change("u1", "ns", "a", 1000, 2000)));
    coalescer.add(P0, 2, decision("n1", false, change("u2", "ns", "b", 1000, 2000)));
    coalescer.add(P0, 3, decision("n1", false, change("u1", "ns", "a", 1000, 2500)));
    // then offset 1 is already released; offset 2 holds the commit back
    assertThat(coalescer.committable()).containsEntry(P0, new OffsetAndMetadata(2));
    // when u1's newer change is handled but u2 is not
    PodWork newestU1 = coalescer.ready(0).stream().filter(w -> w.uid().equals("u1")).findFirst().orElseThrow();
    coalescer.handled(newestU1);
    // then still 2 (u2 outstanding)
    assertThat(coalescer.committable()).containsEntry(P0, new OffsetAndMetadata(2));
    // when u2 is handled
    coalescer.handled(coalescer.ready(0).get(0));
    // then everything up to 3
    assertThat(coalescer.committable()).containsEntry(P0, new OffsetAndMetadata(4));
    assertThat(coalescer.pendingCount()).isZero();
  }

  @Test
  void handlingAChangeThatWasSupersededMeanwhileKeepsTheNewerOnePending() {
    // given a change taken for a try
    coalescer.add(P0, 1, decision("n1", false, change("u1", "ns", "a", 1000, 2000)));
    PodWork tried = coalescer.ready(0).get(0);
    // when a newer one arrives before the try's outcome is released
    coalescer.add(P0, 2, decision("n1", false, change("u1", "ns", "a", 1000, 3000)));
    coalescer.handled(tried);
    // then the newer one is still to do and offset 2 is not committable
    assertThat(coalescer.ready(0)).singleElement()
        .satisfies(w -> assertThat(w.change().targetMilli()).isEqualTo(3000));
    assertThat(coalescer.committable()).containsEntry(P0, new OffsetAndMetadata(2));
  }

  @Test
  void recordsWithoutChangesAreCommittableAtOnce() {
    coalescer.add(P0, 7, decision("n1", false));
    coalescer.skip(P1, 3);
    assertThat(coalescer.committable())
        .isEqualTo(Map.of(P0, new OffsetAndMetadata(8), P1, new OffsetAndMetadata(4)));
  }

  @Test
  void anOffsetOnceCommittedIsNotOfferedAgain() {
    coalescer.skip(P0, 7);
    coalescer.committed(coalescer.committable());
    assertThat(coalescer.committable()).isEmpty();
  }

  @Test
  void aChangeWaitingForARetryIsNotReadyBeforeItsTime() {
    // given
    coalescer.add(P0, 1, decision("n1", false, change("u1", "ns", "a", 1000, 2000)));
    PodWork work = coalescer.ready(0).get(0);
    // when
    coalescer.retryLater(work, 1_000);
    // then
    assertThat(coalescer.ready(999)).isEmpty();
    assertThat(coalescer.nextRetryNanos()).hasValue(1_000);
    assertThat(coalescer.ready(1_000)).singleElement().satisfies(w -> assertThat(w.attempt()).isEqualTo(1));
    assertThat(coalescer.committable()).isEmpty();
  }

  @Test
  void revokedPartitionsLoseTheirPendingChangesAndOffsets() {
    coalescer.add(P0, 1, decision("n1", false, change("u1", "ns", "a", 1000, 2000)));
    coalescer.add(P1, 1, decision("n2", false, change("u2", "ns", "b", 1000, 2000)));
    coalescer.revoke(List.of(P0));
    assertThat(coalescer.ready(0)).extracting(PodWork::uid).containsExactly("u2");
    assertThat(coalescer.committable()).doesNotContainKey(P0);
  }
}
