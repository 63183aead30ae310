package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.projection.WatchLogReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch-log reader reads each line in one streaming pass ({@link WatchLogReader#parse}); the
 * yardstick is the tree-then-bind path it replaced ({@link WatchLogReader#parseAsTree}). On every
 * line of the trace, of generated churn, of the shipped examples and of hostile lines, both must
 * give the same item: the same fabric8 object (equals), time and type, or the same malformed
 * reason.
 */
class LeanWatchLineReaderTest {
  @TempDir Path dir;

  @Test
  void everyLineOfTheTraceReadsTheSameBothWays() throws IOException {
    Path trace = TraceScenarioTest.TRACE;
    assumeTrue(TraceScenario.available(trace), "openb trace not found at " + trace.toAbsolutePath());
    assertThat(sameBothWays(TraceLog30.lines())).isGreaterThan(1000);
  }

  @Test
  void everyLineOfGeneratedChurnAndTheExamplesReadsTheSameBothWays() throws IOException {
    Path log = dir.resolve("synthetic.jsonl");
    SyntheticScenario.generate(SyntheticScenario.Options.defaults(12, 400).withSeed(7)).write(log);
    assertThat(sameBothWays(Files.readAllLines(log))).isGreaterThan(400);
    for (String example : List.of("two-nodes.jsonl", "reserved-headroom.jsonl")) {
      assertThat(sameBothWays(Files.readAllLines(Path.of("..", "..", "docs", "examples", example)))).isPositive();
    }
  }

  @Test
  void hostileLinesAreRefusedForTheSameReasonBothWays() {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}}";
    List<String> lines = List.of(
        "[1,2]", "42", "\"x\"", "null", "{", "{} {}", "{\"type\":\"ADDED\"}",
        "{\"type\":\"ADDED\",\"object\":" + pod + "} trailing",
        "{\"type\":\"ADDED\",\"at\":5,\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"at\":\"yesterday\",\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"at\":null,\"object\":" + pod + "}",
        "{\"type\":\"TOUCHED\",\"object\":" + pod + "}",
        "{\"type\":7,\"object\":" + pod + "}",
        "{\"object\":" + pod + ",\"type\":\"ADDED\",\"at\":\"2026-03-01T00:00:00Z\"}",
        "{\"type\":\"ADDED\",\"object\":" + pod + ",\"object\":null}",
        "{\"type\":\"ADDED\",\"object\":null,\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"type\":\"DELETED\",\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"\",\"metadata\":{\"name\":\"p\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":3,\"metadata\":{\"name\":\"p\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v2\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":[]}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":{\"x\":1}}}}]}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
            + "\"generation\":\"many\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kube-headroom.dev/v1alpha1\",\"kind\":\"HeadroomConfig\","
            + "\"metadata\":{\"name\":\"cluster\",\"generation\":2},\"spec\":{\"debouncePeriod\":\"2s\",\"x\":[1,{\"y\":null}]}}}");
    assertThat(sameBothWays(lines)).isEqualTo(lines.size());
  }

  /** Asserts both paths give equal items for every non-blank line; returns how many lines. */
  private static int sameBothWays(List<String> lines) {
    WatchLogReader lean = new WatchLogReader(new BufferedReader(new StringReader("")));
    WatchLogReader tree = new WatchLogReader(new BufferedReader(new StringReader("")));
    int n = 0;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      n++;
      assertThat(lean.parse(n, line)).as("line %d: %s", n, line).isEqualTo(tree.parseAsTree(n, line));
    }
    return n;
  }
}
