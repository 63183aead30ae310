package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.projection.Malformed;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs only where the openb trace sits next to the repository (here and on CI machines). */
class TraceScenarioTest {
  static final Path TRACE = locate();

  @TempDir Path dir;

  @Test
  void smallTraceScenarioPlacesWithoutOverbookingAndParses() throws IOException {
    assumeTrue(TraceScenario.available(TRACE), "openb trace not found at " + TRACE.toAbsolutePath());
    // given
    TraceScenario.Options options = TraceScenario.Options.defaults(40);
    // when
    Scenario scenario = TraceScenario.build(TRACE, options);
    Path log = dir.resolve("trace.jsonl");
    scenario.write(log);
    // then
    Scenario.Summary s = scenario.summary();
    assertThat(s.nodes()).isEqualTo(40);
    assertThat(s.candidatePods() + s.skippedPods()).isEqualTo(8152);
    assertThat(s.placedPods()).isPositive();
    assertThat(s.placedPods() + s.unplacedPods()).isEqualTo(s.candidatePods());
    assertThat(Bookings.peakShare(scenario.events())).isLessThanOrEqualTo(1.0);
    List<WatchLogItem> items;
    try (Stream<WatchLogItem> read = WatchLogReader.read(log)) {
      items = read.toList();
    }
    assertThat(items).hasSize(scenario.events().size()).noneMatch(i -> i instanceof Malformed);
    assertThat(Files.readAllLines(log)).isEqualTo(linesOf(TraceScenario.build(TRACE, options)));
  }

  /**
   * {@code -Dheadroom.trace=DIR}, else the nearest {@code shared/traces/alibaba-openb} beside the
   * repository root or one of its parents (a git worktree sits one level deeper than the clone).
   */
  static Path locate() {
    String property = System.getProperty("headroom.trace");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    Path dir = Path.of("").toAbsolutePath().getParent(); // tests run in the module directory
    for (int up = 0; up < 3 && dir != null && dir.getParent() != null; up++, dir = dir.getParent()) {
      Path candidate = dir.getParent().resolve(Path.of("shared", "traces", "alibaba-openb"));
      if (TraceScenario.available(candidate)) {
        return candidate;
      }
    }
    return Path.of("..", "..", "..", "shared", "traces", "alibaba-openb");
  }

  private List<String> linesOf(Scenario scenario) throws IOException {
    Path again = dir.resolve("again.jsonl");
    scenario.write(again);
    return Files.readAllLines(again);
  }
}
