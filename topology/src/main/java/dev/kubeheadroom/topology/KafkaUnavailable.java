package dev.kubeheadroom.topology;

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
 *       Streams does not retry; only a new producer (a new stream thread) gets past it.
 * </ul>
 */
final class KafkaUnavailable {
  /** The tail of the producer's message for a pending timed-out transactional call. */
  static final String TIMED_OUT_CALL = "timed out and must be retried";

  private KafkaUnavailable() {}

  /** True if either shape is anywhere in {@code e}'s cause chain. */
  static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
      if (t instanceof IllegalStateException && t.getMessage() != null
          && t.getMessage().contains(TIMED_OUT_CALL)) {
        return true;
      }
    }
    return false;
  }
}
