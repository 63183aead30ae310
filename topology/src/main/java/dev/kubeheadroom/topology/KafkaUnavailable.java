package dev.kubeheadroom.topology;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Tells a failure caused by Kafka being unreachable from one caused by our code or data. Two
 * shapes, both seen when the broker is away for longer than the clients' timeouts (DESIGN.md,
 * "Kafka outages"):
 *
 * <ul>
 *   <li>a client {@link TimeoutException} (metadata, {@code delivery.timeout.ms}, commit, list
 *       offsets), which Streams retries for {@code task.timeout.ms} and then fails the thread
 *       with ("Task 0_1 did not make progress within …");
 *   <li>the producer refusing any other transactional call after one timed out ("Cannot attempt
 *       operation `beginTransaction` because the previous call to `abortTransaction` timed out
 *       and must be retried"): an {@link IllegalStateException}, not a Kafka exception, that
 *       Streams does not retry; only a new producer (a new stream thread) gets past it;
 *   <li>the producer's abortable error once sends it could not deliver within
 *       {@code delivery.timeout.ms} are given up ("The client hasn't received acknowledgment for
 *       some previously sent messages and can no longer retry them"), which a commit across the
 *       outage meets: a plain {@code KafkaException}, which again only a new producer gets past;
 *   <li>the group coordinator fencing this static member ({@link FencedInstanceIdException}: "another
 *       consumer with the same group.instance.id has registered with a different member.id"),
 *       which a commit met after the broker's kill -9 and restart (the fault suite's row, a run of
 *       2026-12-07: the process exited 1 for the kubelet to restart); the consumer is fenced for
 *       good, and only a new stream thread, whose consumer joins afresh, gets past it.
 * </ul>
 */
final class KafkaUnavailable {
  /** The tail of the producer's message for a pending timed-out transactional call. */
  static final String TIMED_OUT_CALL = "timed out and must be retried";
  /** The producer's message for sends given up after {@code delivery.timeout.ms}. */
  static final String UNACKNOWLEDGED_SENDS = "can no longer retry them";

  private KafkaUnavailable() {}

  /** True if any of these shapes is anywhere in {@code e}'s cause chain. */
  static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException || t instanceof FencedInstanceIdException) {
        return true;
      }
      if (t instanceof IllegalStateException && t.getMessage() != null
          && t.getMessage().contains(TIMED_OUT_CALL)) {
        return true;
      }
      if (t instanceof KafkaException && t.getMessage() != null
          && t.getMessage().contains(UNACKNOWLEDGED_SENDS)) {
        return true;
      }
    }
    return false;
  }
}
