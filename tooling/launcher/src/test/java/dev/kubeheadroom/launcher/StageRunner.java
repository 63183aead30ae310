package dev.kubeheadroom.launcher;

import static dev.kubeheadroom.launcher.DocScanner.subcommand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kubeheadroom.launcher.DocScanner.DocCommand;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Runs a documented stage command (the long-running subcommands) in a thread until the command has
 * started its stages (its thread waits in {@code StageRuntime.runUntilStopped}) and {@code /readyz}
 * answers 200, then stops it by interrupting the thread (the stages otherwise stop only on
 * SIGTERM).
 */
final class StageRunner {
  static final Set<String> STAGES = Set.of("run", "ingest", "topology", "actuator", "webhook");
  static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private StageRunner() {}

  /** Starts a stage command in a thread, waits for /readyz 200, then stops it. */
  static void runUntilReady(DocCommand c, List<String> args) throws Exception {
    int healthPort = Integer.parseInt(new Args(args).value("--health-port"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    AtomicReference<Integer> exit = new AtomicReference<>();
    Thread stage = new Thread(() -> {
      CommandLine cli = Launcher.commandLine(new ByteArrayInputStream(new byte[0]));
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      exit.set(cli.execute(args.toArray(String[]::new)));
    }, "docs-" + subcommand(args));
    stage.start();
    try {
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      // Ready once every stage has started (/readyz says "starting" until then) and is ready.
      while (!waitingForStop(stage) || readyz(healthPort) != 200) {
        if (!stage.isAlive()) {
          fail(c.where() + ": `" + c.text() + "` ended with " + exit.get() + " before it was ready: " + err);
        }
        if (System.nanoTime() > deadline) {
          fail(c.where() + ": `" + c.text() + "` not ready within " + READY_TIMEOUT + " (ran as " + args + ")");
        }
        TimeUnit.MILLISECONDS.sleep(200); // polling an HTTP probe: there is nothing to wait on
      }
    } finally {
      stage.interrupt(); // the stage's wait for SIGTERM ends; it closes every resource it owns
      stage.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(stage.isAlive()).as("%s still running after stop", c.text()).isFalse();
  }

  /** The operator's stage runtime (package-private in module cli), by name. */
  private static final String STAGE_RUNTIME = "dev.kubeheadroom.cli.StageRuntime";

  private static boolean waitingForStop(Thread stage) {
    return Stream.of(stage.getStackTrace()).anyMatch(f -> f.getClassName().equals(STAGE_RUNTIME)
        && f.getMethodName().equals("runUntilStopped"));
  }

  private static int readyz(int port) {
    try {
      HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/readyz").toURL()
          .openConnection();
      http.setConnectTimeout(500);
      http.setReadTimeout(1000);
      try {
        return http.getResponseCode();
      } finally {
        http.disconnect();
      }
    } catch (IOException e) {
      return -1;
    }
  }
}
