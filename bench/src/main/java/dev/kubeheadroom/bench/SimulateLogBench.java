package dev.kubeheadroom.bench;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * {@code simulate} on an existing watch log (e.g. {@link SimulateRateBench}'s {@code --keep-log}),
 * {@code runs} times in one JVM: per run the wall rate, the process's CPU seconds per 100,000
 * events and the MD5 of the report's JSON exactly as {@code headroom simulate -o json} prints it,
 * so a change to the engine can be held to the same output while it is profiled.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.kubeheadroom.bench.SimulateLogBench /tmp/trace.jsonl 5
 * </pre>
 */
public final class SimulateLogBench {
  private SimulateLogBench() {}

  public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
    Args.quietLogs();
    Path log = Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    for (int r = 0; r < runs; r++) {
      long cpu = ProcessCpu.nanos();
      long start = System.nanoTime();
      ClusterReport report;
      try (Stream<WatchLogItem> items = WatchLogReader.readForProjection(log)) {
        report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE).run(items.iterator());
      }
      long wall = System.nanoTime() - start;
      long used = ProcessCpu.nanos() - cpu;
      StringWriter json = new StringWriter();
      ReportWriter.json(report, new PrintWriter(json));
      byte[] md5 = MessageDigest.getInstance("MD5").digest(json.toString().getBytes(StandardCharsets.UTF_8));
      long events = report.summary().events();
      System.out.printf("run %d: %d events, %d decisions, %d patches, %.0f events/s, %.2f CPU-s per 100k, "
              + "load %.1f, md5 %s%n", r, events, report.summary().decisions(), report.summary().patches(),
          events * 1e9 / wall, used / 1e9 * 100_000 / events,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), HexFormat.of().formatHex(md5));
    }
  }
}
