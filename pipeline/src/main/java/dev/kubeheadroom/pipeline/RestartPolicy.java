package dev.kubeheadroom.pipeline;

import java.time.Duration;

/**
 * What {@link Pipeline#supervise} does with a stage that failed: start it again after a backoff
 * (doubling from {@code firstBackoff} up to {@code maxBackoff}), unless it has already been
 * restarted {@code maxRestarts} times within {@code window}; then the pipeline gives up and the
 * process exits once, for its supervisor (Kubernetes) to restart.
 *
 * @param maxRestarts restarts allowed within {@code window}; 0: never restart (exit at once)
 * @param window how far back restarts count
 * @param firstBackoff the wait before the first restart
 * @param maxBackoff the longest wait
 */
public record RestartPolicy(int maxRestarts, Duration window, Duration firstBackoff, Duration maxBackoff) {
  /** Never restart in-process: one stage per process, the orchestrator restarts it. */
  public static final RestartPolicy EXIT = new RestartPolicy(0, Duration.ofMinutes(10), Duration.ofSeconds(1),
      Duration.ofSeconds(1));

  /**
   * {@code headroom run}: restart the stage in-process, 5 times in 10 minutes at most, waiting 1 s
   * then doubling up to 30 s.
   */
  public static final RestartPolicy IN_PROCESS = new RestartPolicy(5, Duration.ofMinutes(10),
      Duration.ofSeconds(1), Duration.ofSeconds(30));

  public RestartPolicy {
    if (maxRestarts < 0) {
      throw new IllegalArgumentException("maxRestarts must be >= 0, got " + maxRestarts);
    }
    for (Duration d : new Duration[] {window, firstBackoff, maxBackoff}) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("durations must be >= 0, got " + d);
      }
    }
  }

  /** The wait before the {@code n}-th restart within the window (n ≥ 1). */
  Duration backoff(int n) {
    Duration d = firstBackoff;
    for (int i = 1; i < n && d.compareTo(maxBackoff) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
  }
}
