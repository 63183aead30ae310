package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.OpsRoutes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Objects;

/**
 * What every stage of one process shares: the meter registry, Headroom's meters on it (one
 * {@link HeadroomMetrics} per registry), the clock, and the metrics server's routes.
 */
public record StageContext(MeterRegistry registry, HeadroomMetrics metrics, Clock clock, OpsRoutes routes) {
  public StageContext {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(clock, "clock");
    routes = routes == null ? OpsRoutes.NONE : routes;
  }

  /** No endpoints of the stages' own (no ops server). */
  public StageContext(MeterRegistry registry, HeadroomMetrics metrics, Clock clock) {
    this(registry, metrics, clock, OpsRoutes.NONE);
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
