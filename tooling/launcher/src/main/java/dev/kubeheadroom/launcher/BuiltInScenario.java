package dev.kubeheadroom.launcher;

import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.scenarios.Scenario;
import dev.kubeheadroom.scenarios.ScenarioEvent;
import dev.kubeheadroom.scenarios.SyntheticScenario;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's default scenario: three 16-core nodes and twenty pods from the seeded generator
 * fitted to the Alibaba trace's request sizes and lifetimes (scaled down to fit, time compressed
 * 30×), three in four managed, cut after 24 s so the whole demo ends within a minute: pods land
 * alone on empty nodes (limits rise), the nodes fill (limits shrink), some pods end (slack returns).
 */
final class BuiltInScenario {
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  static final Duration LENGTH = Duration.ofSeconds(24);

  private BuiltInScenario() {}

  static List<WatchEvent> events() {
    SyntheticScenario.Options options = new SyntheticScenario.Options(
        3, 16_000, 20, 0.025, 30, 0.15, 0.75, 7, true, START);
    Scenario scenario = SyntheticScenario.generate(options).before(START.plus(LENGTH));
    List<WatchEvent> events = new ArrayList<>();
    long line = 0;
    for (ScenarioEvent e : scenario.events()) {
      events.add(new WatchEvent(++line, WatchEvent.Type.valueOf(e.type().name()), e.at(), e.object()));
    }
    return events;
  }
}
