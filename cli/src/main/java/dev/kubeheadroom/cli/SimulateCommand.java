package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.html.RunHistory;
import dev.kubeheadroom.cli.html.RunPage;
import dev.kubeheadroom.projection.PrettyJsonLines;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.Printable;
import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NodeDecision;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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
  /** The {@code --watch-log} that reads standard input ({@code kubectl get pods -w -o json | ...}). */
  static final String STDIN = "-";

  @Spec CommandSpec spec;

  @Option(names = "--watch-log", required = true, paramLabel = "FILE",
      description = "Watch log: one {\"type\",\"at\",\"object\"} JSON object per line; - reads standard input.")
  Path watchLog;

  private final InputStream stdin;

  public SimulateCommand() {
    this(System.in);
  }

  SimulateCommand(InputStream stdin) {
    this.stdin = stdin;
  }

  @Option(names = "--config", paramLabel = "FILE",
      description = "HeadroomConfig manifest used when the log carries none (default: built-in defaults).")
  Path config;

  // The CLI contract fixes this default (json unless stdout is a terminal): scripts rely on it.
  @Option(names = {"-o", "--output"}, paramLabel = "json|table|yaml|html",
      description = "json (default when stdout is not a terminal), table (default on a terminal), yaml, or html: "
          + "a page drawing the run's decisions and changes over time.")
  OutputFormat output;

  @Option(names = "--progress", description = Progress.DESCRIPTION)
  boolean progress;

  @Override
  public Integer call() {
    boolean piped = STDIN.equals(watchLog.toString());
    if (!piped && !Files.exists(watchLog)) {
      throw new UserError("--watch-log " + watchLog + ": no such file");
    }
    if (!piped && Files.isDirectory(watchLog)) {
      throw new UserError("--watch-log " + watchLog + ": is a directory");
    }
    PrintWriter err = spec.commandLine().getErr();
    ClusterConfig fallback = ConfigFile.read(config, w -> err.println("headroom simulate: " + w));
    Progress shown = Progress.of(err, "simulate", progress);
    // A pipe (-, /dev/stdin, a FIFO) is read once: its length is unknown, so no fraction is shown.
    long lines = (progress || System.console() != null) && Files.isRegularFile(watchLog) ? lines(watchLog) : 0;
    OutputFormat format = OutputFormat.defaultFor(output);
    RunHistory.Recorder history = new RunHistory.Recorder();
    Simulation.Observer observer = new Simulation.Observer() {
      private int reported;

      @Override
      public void decided(NodeDecision decision) {
        if (format == OutputFormat.html) {
          history.decided(decision);
        }
      }

      @Override
      public void warning(String message) {
        if (reported++ < MAX_REPORTED_LINES) {
          err.println("headroom simulate: " + Printable.escape(message)); // a name may hold a newline
        } else if (reported == MAX_REPORTED_LINES + 1) {
          err.println("headroom simulate: (further malformed lines are only counted)");
        }
        err.flush();
      }

      @Override
      public void progress(long events, long decisions) {
        shown.fraction(events, lines);
      }
    };
    ClusterReport report;
    // PrettyJsonLines: kubectl get pods -w -o json prints each object over many lines.
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(
        new PrettyJsonLines(piped ? stdin : Files.newInputStream(watchLog))))) {
      report = new Simulation(fallback, observer).run(items.iterator());
    } catch (IOException e) {
      throw new UserError("--watch-log " + watchLog + ": " + e.getMessage());
    }
    shown.done();
    PrintWriter out = spec.commandLine().getOut();
    switch (format) {
      case json -> ReportWriter.json(report, out);
      case yaml -> {
        StringWriter json = new StringWriter();
        ReportWriter.json(report, new PrintWriter(json));
        StructuredOutput.yamlOfJson(json.toString(), out);
      }
      case table -> ReportWriter.table(report, out);
      case html -> {
        out.print(RunPage.render("Headroom simulate: the run's report", history.history(report)));
        out.flush();
      }
    }
    return ExitCodes.OK;
  }

  /** The log's line count: the 100% of the progress (blank lines count too; close enough). */
  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }
}
