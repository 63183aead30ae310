package dev.kubeheadroom.actuator;

import java.time.Duration;

/**
 * How often a try that met a transient failure (5xx, 429, no answer) is repeated: at most
 * {@code maxAttempts} tries in all, waiting {@code baseDelay × 2^(n−1)} after the n-th.
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay) {
  public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(200));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
    }
    if (baseDelay == null || baseDelay.isNegative()) {
      throw new IllegalArgumentException("baseDelay must be a non-negative duration");
    }
  }

  /** Whether a try that was the {@code attempt}-th (1-based) may be followed by another. */
  public boolean allowsAnotherAfter(int attempt) {
    return attempt < maxAttempts;
  }

  /** The wait after the {@code attempt}-th (1-based) try failed. */
  public Duration delayAfter(int attempt) {
    return baseDelay.multipliedBy(1L << Math.min(Math.max(attempt - 1, 0), 20));
  }
}
