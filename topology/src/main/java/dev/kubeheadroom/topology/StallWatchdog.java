package dev.kubeheadroom.topology;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Tells a topology that has stopped making progress from one that works, rides out a Kafka outage
 * or restores its state (docs/reliability.md, finding 7: after a transactional commit timed out
 * across an outage, the tasks were closed as corrupted and never ran again, with the client
 * RUNNING or REBALANCING for as long as anyone watched; only a new client got past it). Progress
 * is whatever the caller reports: a punctuation or a processed record, a restore batch, running
 * idle with no task assigned. Time during which Kafka does not answer is not held against the
 * topology: the clock starts again when Kafka answers. Stalled: no progress for {@code bound}
 * while Kafka answered.
 */
final class StallWatchdog {
  private final long boundNanos;
  private final LongSupplier nanos;
  private volatile long lastProgress;

  StallWatchdog(Duration bound, LongSupplier nanos) {
    Objects.requireNonNull(bound, "bound");
    if (bound.isNegative() || bound.isZero()) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    this.boundNanos = bound.toNanos();
    this.nanos = Objects.requireNonNull(nanos, "nanos");
    this.lastProgress = nanos.getAsLong();
  }

  /** The topology did some work (or runs idle by assignment). */
  void progressed() {
    lastProgress = nanos.getAsLong();
  }

  /** Kafka did not answer: the outage is not held against the topology. */
  void kafkaAway() {
    progressed();
  }

  /** How long since the last progress (or since Kafka last did not answer). */
  Duration sinceProgress() {
    return Duration.ofNanos(nanos.getAsLong() - lastProgress);
  }

  /** How long the topology has made no progress while Kafka answered, if longer than the bound. */
  Optional<Duration> stalled() {
    long idle = nanos.getAsLong() - lastProgress;
    return idle > boundNanos ? Optional.of(Duration.ofNanos(idle)) : Optional.empty();
  }
}
