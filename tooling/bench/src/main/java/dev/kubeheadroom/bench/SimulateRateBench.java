package dev.kubeheadroom.bench;

import dev.kubeheadroom.bench.StagedReplay.Result;
import dev.kubeheadroom.bench.StagedReplay.Stage;
import dev.kubeheadroom.scenarios.Scenario;
import dev.kubeheadroom.scenarios.SyntheticScenario;
import dev.kubeheadroom.scenarios.TraceScenario;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How fast {@code simulate} replays a realistic watch log, and where the time goes.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.SimulateRateBench \
 *     [--trace ../shared/traces/alibaba-openb] [--nodes 300] [--passes 8] [--runs 3]
 *     [--arrival 2000] [--lifetime 10] [--pods 20000] [--stages READ,READ_TEXT,PROJECT,TOPOLOGY,FULL,FULL_TEST_DRIVER]
 *     [--keep-log FILE | --log FILE]
 * </pre>
 *
 * With {@code --trace} the log comes from the openb trace ({@link TraceScenario}: {@code --nodes}
 * trace nodes, arrivals ÷{@code --arrival}, lifetimes ÷{@code --lifetime}, the pod list replayed
 * {@code --passes} times); without, from {@link SyntheticScenario} ({@code --nodes} 96-core nodes,
 * {@code --pods} pods). The log goes to a temp file; one full run warms the JVM up; then every
 * stage of {@link StagedReplay} runs {@code --runs} times, and the increments between cumulative
 * stages say what each step costs, in wall time and in the process's CPU time (the figure a
 * shared machine distorts least). {@code --keep-log} keeps the log there (to run {@code headroom
 * simulate} on the same log). Last, the settled cluster's snapshots are fed to the topology
 * again, which must decide nothing. {@code --log} replays an existing log instead of generating
 * one (no nothing-moved check); with {@code --stages READ} alone the warm-up is a READ run. READ
 * also prints the reading thread's own CPU and heap allocation per event ({@code ThreadMXBean}).
 */
public final class SimulateRateBench {
  private SimulateRateBench() {}

  public static void main(String[] args) throws IOException {
    Args.quietLogs();
    Map<String, String> opts = Args.parse(args);
    int nodes = Integer.parseInt(opts.getOrDefault("nodes", "300"));
    int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
    Path given = opts.containsKey("log") ? Path.of(opts.get("log")) : null;
    Path log = given != null ? given : opts.containsKey("keep-log") ? Path.of(opts.get("keep-log"))
        : Files.createTempFile("headroom-simulate-bench-", ".jsonl");
    Path midway = given != null ? null : Files.createTempFile("headroom-simulate-bench-midway-", ".jsonl");
    try {
      long binds = given != null ? 0 : generate(opts, nodes, log, midway);
      List<Stage> stages = opts.containsKey("stages")
          ? java.util.Arrays.stream(opts.get("stages").split(",")).map(Stage::valueOf).toList()
          : List.of(Stage.values());
      // Reading alone warms up on reading: a full simulate would warm up code READ never runs.
      boolean readOnly = stages.stream().allMatch(s -> s == Stage.READ || s == Stage.READ_TEXT);
      Stage warmStage = readOnly ? stages.get(0) : Stage.FULL;
      Result warm = StagedReplay.run(log, warmStage);
      System.out.printf("warm-up (%s): %.0f events/s, %.2f CPU-s per 100k events%n", warmStage, warm.eventsPerSecond(),
          warm.cpuSecondsPer100k());

      Map<Stage, List<Result>> results = new EnumMap<>(Stage.class);
      for (int r = 0; r < runs; r++) {
        for (Stage stage : stages) {
          results.computeIfAbsent(stage, s -> new ArrayList<>()).add(StagedReplay.run(log, stage));
        }
      }
      System.out.printf("%-17s %12s %24s %14s %26s%n", "stage", "events/s", "seconds (min/med/max)", "step (med s)",
          "CPU-s per 100k (min/med)");
      double previous = 0;
      for (Stage stage : stages) {
        List<Double> secs = results.get(stage).stream().map(x -> x.nanos() / 1e9).sorted().toList();
        List<Double> cpu = results.get(stage).stream().map(Result::cpuSecondsPer100k).sorted().toList();
        double med = secs.get(secs.size() / 2);
        long events = results.get(stage).get(0).events();
        System.out.printf("%-17s %12.0f %8.2f/%.2f/%.2f %14.2f %18.2f/%.2f%n", stage, events / med, secs.get(0), med,
            secs.get(secs.size() - 1), med - previous, cpu.get(0), cpu.get(cpu.size() / 2));
        if (stage != Stage.READ_TEXT) {
          previous = med; // READ_TEXT is READ's yardstick, not a step of the chain
        }
      }
      for (Stage read : List.of(Stage.READ, Stage.READ_TEXT)) {
        if (results.containsKey(read)) {
          printReaderCost(read, results.get(read));
        }
      }
      Result full = results.containsKey(Stage.FULL) ? results.get(Stage.FULL).get(0) : warm;
      if (binds > 0) {
        System.out.printf("full simulate: %d events, %d decisions, %d patches, %d pod binds, "
                + "%.3f patches per scheduling event%n",
            full.events(), full.decisions(), full.patches(), binds, (double) full.patches() / binds);
      } else if (full.decisions() > 0) {
        System.out.printf("full simulate: %d events, %d decisions, %d patches%n",
            full.events(), full.decisions(), full.patches());
      }
      if (results.containsKey(Stage.FULL_TEST_DRIVER)) {
        Result yard = results.get(Stage.FULL_TEST_DRIVER).get(0);
        System.out.printf("under TopologyTestDriver: %d decisions, %d patches (%s inline replay)%n",
            yard.decisions(), yard.patches(),
            yard.decisions() == full.decisions() && yard.patches() == full.patches() ? "the same as" : "DIFFERENT FROM");
      }

      if (midway != null) {
        long[] quiet = StagedReplay.decisionsWhenNothingMoved(midway);
        System.out.printf("nothing moved (log cut halfway): %d decisions while replaying and settling; %d pod snapshots "
            + "re-sent unchanged after settling -> %d decisions%n", quiet[0], quiet[1], quiet[2]);
      }
      System.out.printf("machine: %d cores, load average %.2f (1 min, at the end)%n",
          Runtime.getRuntime().availableProcessors(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    } finally {
      if (given == null && !opts.containsKey("keep-log")) {
        Files.deleteIfExists(log);
      }
      if (midway != null) {
        Files.deleteIfExists(midway);
      }
    }
  }

  /** Writes the scenario's log (and its first half to {@code midway}); returns its pod binds. */
  private static long generate(Map<String, String> opts, int nodes, Path log, Path midway) throws IOException {
    long t0 = System.nanoTime();
    Scenario scenario;
    String source;
    if (opts.containsKey("trace")) {
      TraceScenario.Options o = TraceScenario.Options.defaults(nodes)
          .withCompression(Double.parseDouble(opts.getOrDefault("arrival", "2000")),
              Double.parseDouble(opts.getOrDefault("lifetime", "10")))
          .withPasses(Integer.parseInt(opts.getOrDefault("passes", "8")));
      scenario = TraceScenario.build(Path.of(opts.get("trace")), o);
      source = "openb trace, " + o;
    } else {
      SyntheticScenario.Options o = SyntheticScenario.Options.defaults(nodes,
          Integer.parseInt(opts.getOrDefault("pods", "20000")));
      scenario = SyntheticScenario.generate(o);
      source = "synthetic, " + o;
    }
    long lines = scenario.write(log);
    System.out.printf("scenario: %s%n", source);
    System.out.printf("  %s%n", scenario.summary());
    System.out.printf("  %d lines, %.1f MB, generated and written in %.1f s%n", lines,
        Files.size(log) / 1e6, (System.nanoTime() - t0) / 1e9);
    // A watch captured halfway: pods still run when it ends, so re-sending them means something.
    scenario.before(scenario.events().get(scenario.events().size() / 2).at()).write(midway);
    return scenario.summary().placedPods();
  }

  /** The reading thread's own cost per event in each READ run, and the best and median. */
  private static void printReaderCost(Stage stage, List<Result> reads) {
    List<StagedReplay.ReaderCost> costs = reads.stream().map(Result::reader).toList();
    StringBuilder each = new StringBuilder();
    for (StagedReplay.ReaderCost c : costs) {
      each.append(String.format(" %.2f µs/%.0f B", c.cpuMicrosPerLine(), c.bytesPerLine()));
    }
    List<Double> cpu = costs.stream().map(StagedReplay.ReaderCost::cpuMicrosPerLine).sorted().toList();
    List<Double> bytes = costs.stream().map(StagedReplay.ReaderCost::bytesPerLine).sorted().toList();
    System.out.printf("%s, reading thread per event (CPU, allocated), each run:%s%n", stage, each);
    System.out.printf("%s, reading thread per event: CPU %.2f / %.2f µs (min / median) = %.3f / %.3f CPU-s per 100k; "
            + "allocated %.0f / %.0f bytes%n", stage, cpu.get(0), cpu.get(cpu.size() / 2), cpu.get(0) / 10,
        cpu.get(cpu.size() / 2) / 10, bytes.get(0), bytes.get(bytes.size() / 2));
  }
}
