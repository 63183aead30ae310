package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.DriverHarness;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.replay.TopologyHarness;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay runs the topology's processors inline by default; the yardstick is the same topology
 * built for Kafka Streams under {@code TopologyTestDriver} (serialized, cached, changelogged
 * stores, a commit per record). Both must take the same decisions, byte for byte, in the same
 * order, and end with the same report — on generated churn, on the real trace and on the shipped
 * examples. The inline run reads the log as {@code simulate} does ({@link
 * WatchLogReader#forProjection}: pods and nodes bound with only the projected fields), the yardstick
 * binds every object into the whole fabric8 model.
 */
class InlineReplayFidelityTest {
  @TempDir Path dir;

  @Test
  void syntheticChurnGivesTheSameDecisionsInlineAndUnderTheTestDriver() throws IOException {
    SyntheticScenario.Options options = SyntheticScenario.Options.defaults(12, 400).withSeed(7);
    options = options.withTime(options.arrivalsPerSecond() * 3, options.timeCompression());
    Path log = dir.resolve("synthetic.jsonl");
    SyntheticScenario.generate(options).write(log);

    assertSameRun(log, 100);
  }

  @Test
  void traceReplayGivesTheSameDecisionsInlineAndUnderTheTestDriver() throws IOException {
    Path trace = TraceScenarioTest.TRACE;
    assumeTrue(TraceScenario.available(trace), "openb trace not found at " + trace.toAbsolutePath());
    Path log = dir.resolve("trace.jsonl");
    TraceScenario.build(trace, TraceScenario.Options.defaults(30)).write(log);

    assertSameRun(log, 500);
  }

  @Test
  void shippedExamplesGiveTheSameReportInlineAndUnderTheTestDriver() throws IOException {
    for (String example : List.of("two-nodes.jsonl", "reserved-headroom.jsonl", "gangs.jsonl")) {
      Path log = Path.of("..", "..", "docs", "examples", example);
      assertSameRun(log, 1);
    }
  }

  private static void assertSameRun(Path log, int atLeastDecisions) throws IOException {
    Run inline = run(log, TopologyHarness.Factory.INLINE);
    Run driver = run(log, DriverHarness.FACTORY);
    assertThat(inline.decisions).as("decisions on %s", log).hasSizeGreaterThanOrEqualTo(atLeastDecisions);
    assertThat(inline.decisions).as("decisions on %s", log).hasSameSizeAs(driver.decisions);
    for (int i = 0; i < inline.decisions.size(); i++) {
      assertThat(inline.decisions.get(i)).as("decision %d on %s", i, log).isEqualTo(driver.decisions.get(i));
    }
    assertThat(inline.report).isEqualTo(driver.report);
  }

  private record Run(List<String> decisions, ClusterReport report) {}

  private static Run run(Path log, TopologyHarness.Factory kind) throws IOException {
    List<String> decisions = new ArrayList<>();
    Simulation.Observer observer = new Simulation.Observer() {
      @Override
      public void decided(NodeDecision decision) {
        decisions.add(new String(JsonCodec.encode(decision), StandardCharsets.UTF_8));
      }
    };
    try (Stream<WatchLogItem> items = kind == TopologyHarness.Factory.INLINE
        ? WatchLogReader.readForProjection(log) : WatchLogReader.read(log)) {
      ClusterReport report = new Simulation(ClusterConfig.DEFAULTS, observer, kind).run(items.iterator());
      return new Run(decisions, report);
    }
  }
}
