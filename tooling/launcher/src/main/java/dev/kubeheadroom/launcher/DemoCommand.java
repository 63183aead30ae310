package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.OutputFormat;
import dev.kubeheadroom.cli.StructuredOutput;
import dev.kubeheadroom.cli.UserError;
import dev.kubeheadroom.demo.DemoRun;
import dev.kubeheadroom.demo.LimitChange;
import dev.kubeheadroom.projection.Malformed;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ReportWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headroom demo}: the real live pipeline (embedded Kafka, ingest, topology, actuator, real
 * HTTP patches) against an in-process simulated API server and kubelet (docs/design/cli-contract.md).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Runs the live pipeline against a simulated cluster, printing each limit change.",
        "Embedded Kafka, ingest, topology and actuator run against a simulated API server and kubelet.",
        "At the end it prints a summary (or, with --output json, the final state in the simulate form).",
        "It also writes the run's report page, report.html, and prints its file:// address (--open opens it).",
        "The pipeline's logs go to pipeline.log in the demo's directory, "
            + "which keeps the event log for audit and explain."})
public final class DemoCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(DemoCommand.class);
  @Spec CommandSpec spec;

  @Option(names = "--scenario", paramLabel = "FILE",
      description = "A watch log in the simulate format (default: a built-in seeded scenario, 3 nodes and 20 pods shaped "
          + "like a real cluster trace, about 25 s long).")
  Path scenario;

  @Option(names = "--speed", paramLabel = "K", defaultValue = "1",
      description = "Divides every time in the scenario and every pipeline time knob (default: ${DEFAULT-VALUE}).")
  double speed;

  // The CLI contract fixes this default (json unless stdout is a terminal).
  @Option(names = {"-o", "--output"}, paramLabel = "json|table|yaml",
      description = "table (default on a terminal): changes and a summary; json (default otherwise) or yaml: "
          + "the final state in the simulate form.")
  OutputFormat output;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where the run keeps its event log (the embedded broker's data) and pipeline.log; must be "
          + "empty or absent (default: a new directory in the system's temp directory).")
  Path dir;

  @Option(names = "--verbose", description = "Also shows the pipeline's logs on stderr.")
  boolean verbose;

  @Option(names = "--open", description = "Opens the run's report page in a browser at the end (with xdg-open).")
  boolean open;

  @Option(names = "--startup-timeout", paramLabel = "SECONDS", defaultValue = "60", hidden = true)
  long startupTimeoutSeconds;

  @Override
  public Integer call() throws Exception {
    if (!(speed > 0)) {
      throw new UserError("--speed must be a positive number, got " + speed);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    OutputFormat format = OutputFormat.notHtml(OutputFormat.defaultFor(output), "demo (it writes its page to its"
        + " directory)");
    boolean json = format != OutputFormat.table;
    PrintWriter live = json ? err : out;
    List<WatchEvent> events = scenario == null ? BuiltInScenario.events() : read(scenario, err);
    Path work = DemoDirectory.create(dir);
    List<LimitChange> changes = new CopyOnWriteArrayList<>();
    try (DemoLog log = DemoLog.into(work, verbose);
        DemoRun run = new DemoRun(new DemoRun.Options(work, speed, Duration.ofSeconds(startupTimeoutSeconds)))) {
      err.println("headroom demo: starting the pipeline; its logs go to " + log.file());
      err.flush();
      DemoRun.Result result = run.run(events, change -> {
        changes.add(change);
        live.println(describe(change, run.scenarioStarted()));
        live.flush();
      }, line -> {
        err.println("headroom demo: " + line);
        err.flush();
      });
      if (format == OutputFormat.json) {
        ReportWriter.json(result.report(), out);
      } else if (format == OutputFormat.yaml) {
        java.io.StringWriter document = new java.io.StringWriter();
        ReportWriter.json(result.report(), new PrintWriter(document));
        StructuredOutput.yamlOfJson(document.toString(), out);
      }
      // The run's costs are for whoever studies it: the log file; the screen gets the recap.
      result.summary().lines().forEach(line -> LOG.info(line));
      Path page = DemoReport.write(work, changes, result.report());
      live.println();
      new DemoRecap(result.report(), changes, result.summary().wall(), work, Instant.now()).lines()
          .forEach(live::println);
      live.flush();
      if (open) {
        DemoReport.open(page, err);
      }
      return 0;
    }
  }

  static String describe(LimitChange c, Instant start) {
    return String.format(Locale.ROOT, "+%6.1fs  %-36s %-10s %8s → %-8s (node %s)",
        Duration.between(start, c.at()).toMillis() / 1000.0, c.namespace() + "/" + c.pod(), c.container(),
        c.fromMilli() == 0 ? "none" : ReportWriter.cpu(c.fromMilli()), ReportWriter.cpu(c.toMilli()),
        c.node());
  }

  private static List<WatchEvent> read(Path file, PrintWriter err) {
    if (!Files.isRegularFile(file)) {
      throw new UserError("--scenario " + file + ": no such file");
    }
    List<WatchEvent> events = new ArrayList<>();
    try (Stream<WatchLogItem> items = WatchLogReader.read(file)) {
      items.forEach(item -> {
        if (item instanceof Malformed bad) {
          err.println("headroom demo: line " + bad.lineNumber() + ": " + bad.reason());
        } else {
          events.add((WatchEvent) item);
        }
      });
    } catch (IOException e) {
      throw new UserError("--scenario " + file + ": " + e.getMessage());
    }
    events.sort(Comparator.comparing(WatchEvent::at).thenComparingLong(WatchEvent::lineNumber));
    return events;
  }
}
