package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom demo} as a person sees it, run as its own process (the logging backend writes to
 * the process's stderr, which an in-process run would not capture): the screen holds the start-up
 * lines, the limit changes and the closing recap, and no log line; the pipeline's logs are in the
 * demo directory's log file; with {@code --output json}, stdout is the simulate JSON alone.
 */
class DemoScreenTest {
  private static final String LOG = Path.of("../../docs/examples/two-nodes.jsonl").toString();
  /** What may reach the screen: start-up, a change (cli-contract's demo lines), the recap, blank. */
  private static final List<Pattern> SCREEN = List.of(
      Pattern.compile("headroom demo: (starting the pipeline; its logs go to .+|pipeline up in .+)"),
      Pattern.compile("\\+ *\\d+\\.\\ds  \\S+/\\S+ +\\S+ +\\S+ → \\S+ +\\(node \\S+\\)"),
      Pattern.compile("\\d+ pods managed, \\d+ limit changes in [\\d.]+ s; node factor .+"),
      Pattern.compile("kept in \\S+: the event log \\(kafka/\\) and the pipeline's logs \\(pipeline\\.log\\)"),
      Pattern.compile("the run's report: file:/\\S+/report\\.html"),
      Pattern.compile("(try: |     )\\./headroom (explain|audit) .+ --data-dir .+"),
      Pattern.compile(""));
  /** A logger's line: a level word, or a dotted logger name such as org.apache.kafka. */
  private static final Pattern LOG_LINE =
      Pattern.compile("\\b(TRACE|DEBUG|INFO|WARN|ERROR)\\b|\\b[a-z]+\\.[a-z]+\\.[a-z]+");

  @Test
  void theScreenTellsTheRunAndTheLogsGoToTheDemoDirectory(@TempDir Path dir) throws Exception {
    Run demo = Run.launcher(dir.resolve("run.out"), "demo", "--scenario", LOG, "--speed", "20", "--output", "table",
        "--dir", dir.resolve("demo").toString());
    assertThat(demo.exitCode()).as(demo.stderr()).isZero();

    List<String> screen = new ArrayList<>(demo.stderr().lines().toList());
    screen.addAll(demo.stdout().lines().toList());
    assertThat(screen).allSatisfy(line -> {
      assertThat(SCREEN).as("an expected kind of line: " + line).anyMatch(p -> p.matcher(line).matches());
      assertThat(LOG_LINE.matcher(line).find()).as("a log line on the screen: " + line).isFalse();
    });
    assertThat(demo.stdout()).contains("shop/web-1").contains("→").contains("pods managed")
        .contains("kept in " + dir.resolve("demo") + ": the event log")
        .contains("./headroom explain ").contains("./headroom audit ")
        .contains("the run's report: " + dir.resolve("demo").resolve("report.html").toUri());
    assertThat(Files.readString(dir.resolve("demo").resolve("report.html"))).startsWith("<!DOCTYPE html>")
        .contains("limit changes over time").doesNotContain("<script");

    Path file = dir.resolve("demo").resolve(DemoLog.FILE_NAME);
    assertThat(demo.stderr()).contains("its logs go to " + file);
    assertThat(file).exists();
    String logs = Files.readString(file);
    assertThat(logs).contains(" INFO ").containsPattern("(?m)^\\S+ (INFO|WARN) (Ingest|Actuator|Topology)\\S* - ");
    assertThat(logs).contains("API writes per scheduling event");
  }

  @Test
  void withJsonStdoutIsTheSimulateFormAlone(@TempDir Path dir) throws Exception {
    Run demo = Run.launcher(dir.resolve("run.out"), "demo", "--scenario", LOG, "--speed", "20", "--output", "json",
        "--dir", dir.resolve("demo").toString());
    assertThat(demo.exitCode()).as(demo.stderr()).isZero();

    JsonNode report = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(demo.stdout());
    assertThat(report.fieldNames()).toIterable().containsExactly("pods", "nodes", "summary");
    assertThat(demo.stderr()).contains("shop/web-1").contains("pods managed").doesNotContain(" INFO ");
  }

  /** The launcher in a JVM of its own, on this test's class path. */
  private record Run(int exitCode, String stdout, String stderr) {
    static Run launcher(Path base, String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Dfile.encoding=UTF-8", "-cp", System.getProperty("java.class.path"), Launcher.class.getName()));
      command.addAll(List.of(args));
      Path out = Path.of(base + ".stdout");
      Path err = Path.of(base + ".stderr");
      Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!process.waitFor(3, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("the demo did not end in 3 minutes: " + Files.readString(err));
      }
      return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    }
  }
}
