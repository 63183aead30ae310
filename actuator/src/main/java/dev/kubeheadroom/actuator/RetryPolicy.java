package dev.kubeheadroom.actuator;

import java.time.Duration;

/**
 * How often a try that met a transient failure (5xx, 429, no answer) is repeated: at most
 * {@code maxAttempts} tries in all, waiting {@code baseDelay × 2^(n−1)} after the n-th, or longer
 * when the server asked for it ({@code Retry-After}, or a Status's {@code retryAfterSeconds}), up
 * to {@code maxServerDelay}. This is the actuator's only retry layer ({@link ActuatorClient}); a
 * try whose read of the pod went unanswered is not counted ({@link ApiPresence} holds the change).
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxServerDelay) {
  /** Cap on a server-asked wait: a change waiting longer is usually superseded anyway. */
  public static final Duration DEFAULT_MAX_SERVER_DELAY = Duration.ofSeconds(30);
  public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(200));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
    }
    if (baseDelay == null || baseDelay.isNegative()) {
      throw new IllegalArgumentException("baseDelay must be a non-negative duration");
    }
    if (maxServerDelay == null || maxServerDelay.isNegative()) {
      throw new IllegalArgumentException("maxServerDelay must be a non-negative duration");
    }
  }

  public RetryPolicy(int maxAttempts, Duration baseDelay) {
    this(maxAttempts, baseDelay, DEFAULT_MAX_SERVER_DELAY);
  }

  /** Whether a try that was the {@code attempt}-th (1-based) may be followed by another. */
  public boolean allowsAnotherAfter(int attempt) {
    return attempt < maxAttempts;
  }

  /** The wait after the {@code attempt}-th (1-based) try failed. */
  public Duration delayAfter(int attempt) {
    return baseDelay.multipliedBy(1L << Math.min(Math.max(attempt - 1, 0), 20));
  }

  /**
   * The most API requests one change can cost under this policy: a live try is at most a GET and
   * a {@code pods/resize} PATCH (a dry-run try only the GET), each try one request per call (no
   * client-side retries, {@link ActuatorClient}); the annotation PATCH and the event are written
   * once, after the last try, and are not retried. With {@link #DEFAULT}: 8 live, 5 dry-run.
   */
  public int worstCaseRequests(boolean dryRun) {
    return maxAttempts * (dryRun ? 1 : 2) + 2;
  }

  /** As {@link #delayAfter(int)}, but at least what the server asked for (capped). */
  public Duration delayAfter(int attempt, Duration serverAsked) {
    Duration asked = serverAsked == null || serverAsked.isNegative() ? Duration.ZERO : serverAsked;
    Duration capped = asked.compareTo(maxServerDelay) > 0 ? maxServerDelay : asked;
    Duration backoff = delayAfter(attempt);
    return capped.compareTo(backoff) > 0 ? capped : backoff;
  }
}
