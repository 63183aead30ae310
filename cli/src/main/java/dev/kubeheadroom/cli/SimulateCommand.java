package dev.kubeheadroom.cli;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom simulate}: offline, deterministic replay of a watch log (docs/design/cli-contract.md). */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Replays a Kubernetes watch log offline, applying each decision at once.",
      "Same projection, topology and policy code as the live pipeline; no Kafka, no cluster."
    })
public final class SimulateCommand implements Callable<Integer> {
  /** Malformed lines reported one by one before the rest are only counted. */
  static final int MAX_REPORTED_LINES = 50;

  @Spec CommandSpec spec;

  @Option(names = "--watch-log", required = true, paramLabel = "FILE",
      description = "Watch log: one {\"type\",\"at\",\"object\"} JSON object per line.")
  Path watchLog;

  @Option(names = "--config", paramLabel = "FILE",
      description = "HeadroomConfig manifest used when the log carries none (default: built-in defaults).")
  Path config;

  @Option(names = "--output", paramLabel = "json|table",
      description = "json (default when stdout is not a terminal) or table.")
  OutputFormat output;

  @Override
  public Integer call() {
    if (!Files.isRegularFile(watchLog)) {
      throw new UserError("--watch-log " + watchLog + ": no such file");
    }
    ClusterConfig fallback = ConfigFile.read(config);
    PrintWriter err = spec.commandLine().getErr();
    long started = System.nanoTime();
    Simulation.Observer observer = new Simulation.Observer() {
      private int reported;

      @Override
      public void warning(String message) {
        if (reported++ < MAX_REPORTED_LINES) {
          err.println("headroom simulate: " + message);
        } else if (reported == MAX_REPORTED_LINES + 1) {
          err.println("headroom simulate: (further malformed lines are only counted)");
        }
        err.flush();
      }

      @Override
      public void progress(long events, long decisions) {
        double seconds = (System.nanoTime() - started) / 1e9;
        err.printf("headroom simulate: %,d events, %,d decisions (%,.0f events/s)%n",
            events, decisions, events / seconds);
        err.flush();
      }
    };
    ClusterReport report;
    try (Stream<WatchLogItem> items = WatchLogReader.read(watchLog)) {
      report = new Simulation(fallback, observer).run(items.iterator());
    } catch (IOException e) {
      throw new UserError("--watch-log " + watchLog + ": " + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (OutputFormat.defaultFor(output) == OutputFormat.json) {
      ReportWriter.json(report, out);
    } else {
      ReportWriter.table(report, out);
    }
    return 0;
  }
}
