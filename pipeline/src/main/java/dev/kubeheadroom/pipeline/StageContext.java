package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ops.HeadroomMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Objects;

/**
 * What every stage of one process shares: the meter registry, Headroom's meters on it (one
 * {@link HeadroomMetrics} per registry), and the clock.
 */
public record StageContext(MeterRegistry registry, HeadroomMetrics metrics, Clock clock) {
  public StageContext {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(clock, "clock");
  }

  /** Headroom's meters on {@code registry}, the system clock. */
  public static StageContext of(MeterRegistry registry) {
    return new StageContext(registry, new HeadroomMetrics(registry), Clock.systemUTC());
  }

  /** An in-memory registry (the demo, tests). */
  public static StageContext inMemory() {
    return of(new SimpleMeterRegistry());
  }
}
