package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class KafkaUnavailableTest {
  @Test
  void aTaskTimeoutCausedByAClientTimeoutIsKafkaBeingAway() {
    // The shape Streams 4.x fails a thread with once task.timeout.ms has passed.
    Exception e = new StreamsException(new TimeoutException(
        "Task 0_1 did not make progress within 300000 ms.",
        new TimeoutException("Topic hr.headroom-pods-changelog not present in metadata after 60000 ms.")));
    assertThat(KafkaUnavailable.causedBy(e)).isTrue();
  }

  @Test
  void aProducerRefusingACallAfterATimedOutOneIsKafkaBeingAway() {
    // What KafkaProducer throws once an abort timed out (seen in KafkaOutageTopologyTest).
    Exception e = new StreamsException(new IllegalStateException("Cannot attempt operation "
        + "`beginTransaction` because the previous call to `abortTransaction` timed out and must be retried"));
    assertThat(KafkaUnavailable.causedBy(e)).isTrue();
    assertThat(KafkaUnavailable.causedBy(new NodeFailure("n3", (RuntimeException) e.getCause()))).isTrue();
    // After a timed-out commit (the fault run's broker kill -9) the abort is refused alike.
    assertThat(KafkaUnavailable.causedBy(new IllegalStateException("Cannot attempt operation "
        + "`abortTransaction` because the previous call to `commitTransaction` timed out and must be retried")))
        .isTrue();
  }

  @Test
  void aCommitMeetingSendsTheProducerGaveUpOnIsKafkaBeingAway() {
    // What a commit across an outage failed the thread with (KafkaOutageTopologyTest, .ci/run):
    // sends past delivery.timeout.ms leave the transaction abortable; only a new producer helps.
    Exception e = new StreamsException("Error encountered trying to add offsets to a transaction",
        new org.apache.kafka.common.KafkaException("The client hasn't received acknowledgment for some "
            + "previously sent messages and can no longer retry them. It is safe to abort the transaction and continue."));
    assertThat(KafkaUnavailable.causedBy(e)).isTrue();
    // other Kafka exceptions stay bugs
    assertThat(KafkaUnavailable.causedBy(new StreamsException(new org.apache.kafka.common.KafkaException("boom"))))
        .isFalse();
  }

  @Test
  void aStaticMemberFencedByTheCoordinatorAfterABrokerRestartNeedsANewThreadNotANewProcess() {
    // What a commit failed the thread with after the broker's kill -9 (the fault suite, 2026-12-07)
    Exception e = new StreamsException("Error encountered trying to add offsets to a transaction",
        new org.apache.kafka.common.errors.FencedInstanceIdException("The broker rejected this static consumer "
            + "since another consumer with the same group.instance.id has registered with a different member.id."));
    assertThat(KafkaUnavailable.causedBy(e)).isTrue();
  }

  @Test
  void anythingElseIsABug() {
    assertThat(KafkaUnavailable.causedBy(new StreamsException(new IllegalStateException("bug"))))
        .isFalse();
    assertThat(KafkaUnavailable.causedBy(new NullPointerException())).isFalse();
    // java.util.concurrent's TimeoutException is not Kafka's.
    assertThat(KafkaUnavailable.causedBy(new java.util.concurrent.TimeoutException())).isFalse();
  }
}
