package dev.kubeheadroom.cli;

import dev.kubeheadroom.projection.WatchEvent;
import java.util.List;

/** The demo's default scenario (a seeded generator shaped like a real cluster trace). */
final class BuiltInScenario {
  private BuiltInScenario() {}

  static List<WatchEvent> events() {
    throw new UserError("no built-in scenario yet: pass --scenario FILE");
  }
}
