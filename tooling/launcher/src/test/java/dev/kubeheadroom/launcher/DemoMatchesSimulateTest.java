package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design/cli-contract.md: for a log whose events are further apart than the debounce, {@code demo
 * --scenario X --output json} (the live pipeline: embedded Kafka, ingest, topology, actuator, real
 * HTTP patches against the API double) and {@code simulate --watch-log X} list the same pods with
 * the same limits.
 */
class DemoMatchesSimulateTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOG = Path.of("../../docs/examples/two-nodes.jsonl").toString();

  @Test
  void theLivePipelineEndsWhereTheOfflineReplayEnds(@TempDir Path dir) throws Exception {
    CliRun simulated = CliRun.run("simulate", "--watch-log", LOG, "--output", "json");
    assertThat(simulated.exitCode()).as(simulated.stderr()).isZero();
    // --speed divides the log's times and every time knob alike, so the decisions are the same.
    CliRun live = CliRun.run("demo", "--scenario", LOG, "--speed", "10", "--output", "json",
        "--dir", dir.toString());
    assertThat(live.exitCode()).as(live.stderr()).isZero();

    JsonNode expected = JSON.readTree(simulated.stdout());
    JsonNode actual = JSON.readTree(live.stdout());
    assertThat(actual.get("pods")).isEqualTo(expected.get("pods"));
    assertThat(actual.get("nodes")).isEqualTo(expected.get("nodes"));
    assertThat(actual.get("summary").get("events").asLong()).isEqualTo(12);
    assertThat(live.stderr()).contains("shop/web-1").contains("→");
  }
}
