package dev.kubeheadroom.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' {@code promtool} (Debian package {@code prometheus}; {@code .ci/run} installs it),
 * for tests that check rules and scrapes with the real parser. A test that needs it is skipped
 * (JUnit assumption), not failed, on a machine without it.
 */
public final class Promtool {
  private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/promtool"),
      Path.of("/usr/local/bin/promtool"));

  private final Path binary;

  private Promtool(Path binary) {
    this.binary = binary;
  }

  /** The installed promtool, or the calling test is skipped. */
  public static Promtool require() {
    Path found = InstalledTool.find("PROMTOOL", CANDIDATES).orElse(null);
    assumeTrue(found != null, "promtool not installed (apt-get install prometheus); skipped");
    return new Promtool(found);
  }

  /** What one run printed (stdout and stderr together) and its exit code. */
  public record Result(int exitCode, String output) {
    public boolean ok() {
      return exitCode == 0;
    }
  }

  /** Runs {@code promtool args...} in {@code dir}, feeding {@code stdin} (may be null). */
  public Result run(Path dir, byte[] stdin, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .start();
    if (stdin != null) {
      process.getOutputStream().write(stdin);
    }
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("promtool " + args[0] + " did not finish in 60 s");
    }
    return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** {@code promtool check metrics} on one scrape (text format 0.0.4). */
  public Result checkMetrics(String scrape) throws IOException, InterruptedException {
    return run(Path.of("."), scrape.getBytes(StandardCharsets.UTF_8), "check", "metrics");
  }
}
