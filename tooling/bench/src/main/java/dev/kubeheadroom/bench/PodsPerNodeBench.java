package dev.kubeheadroom.bench;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

/**
 * {@code simulate}'s cost against the number of pods on one node: a log of one node and N pods
 * bound to it (added over a minute, then each modified once), replayed in this JVM for each N.
 * Per N: the process's CPU and the main thread's (where the topology runs) per event, the bytes the
 * main thread allocated per event (steady under a shared machine's load, unlike time), and the
 * wall time. Linear cost shows as flat figures per event; a booking that copied every pod per
 * event showed its allocation, and the collectors' CPU with it, growing with N.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.PodsPerNodeBench 1000 10000 20000
 * </pre>
 */
public final class PodsPerNodeBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private PodsPerNodeBench() {}

  public static void main(String[] args) {
    Args.quietLogs();
    int[] sizes = args.length == 0 ? new int[] {1_000, 10_000, 20_000}
        : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    run(sizes[0]); // warm-up: the JIT, not the figures
    for (int n : sizes) {
      Result r = run(n);
      System.out.printf("pods per node %,d: %,d events, %.2f s wall; per event: process CPU %.1f µs, main-thread CPU"
              + " %.1f µs, main-thread allocation %,.0f bytes; load %.1f%n", n, r.events(), r.wallNanos() / 1e9,
          r.processCpuNanos() / 1e3 / r.events(), r.mainCpuNanos() / 1e3 / r.events(),
          (double) r.mainBytes() / r.events(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  record Result(long events, long wallNanos, long processCpuNanos, long mainCpuNanos, long mainBytes) {}

  private static long allocated() {
    return THREADS instanceof com.sun.management.ThreadMXBean hotspot
        ? hotspot.getThreadAllocatedBytes(Thread.currentThread().getId()) : -1;
  }

  static Result run(int pods) {
    byte[] log = log(pods);
    long process = ProcessCpu.nanos();
    long cpu = THREADS.getCurrentThreadCpuTime();
    long bytes = allocated();
    long start = System.nanoTime();
    ClusterReport report;
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(new ByteArrayInputStream(log)))) {
      report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE).run(items.iterator());
    }
    long wall = System.nanoTime() - start;
    long used = THREADS.getCurrentThreadCpuTime() - cpu;
    long allocatedBytes = allocated() - bytes;
    long processUsed = ProcessCpu.nanos() - process;
    if (report.pods().size() != pods) {
      throw new IllegalStateException("expected " + pods + " pods, got " + report.pods().size());
    }
    return new Result(report.summary().events(), wall, processUsed, used, allocatedBytes);
  }

  /** A namespace, a node large enough for every pod, {@code pods} pods added, then each modified. */
  static byte[] log(int pods) {
    StringBuilder out = new StringBuilder(pods * 600);
    out.append("{\"type\":\"ADDED\",\"at\":\"2026-03-01T12:00:00Z\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
        + "\"metadata\":{\"name\":\"shop\",\"uid\":\"ns-shop\",\"labels\":{\"kube-headroom.dev/mode\":\"managed\"}}}}\n");
    out.append("{\"type\":\"ADDED\",\"at\":\"2026-03-01T12:00:00Z\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"n1\",\"uid\":\"node-n1\"},\"status\":{\"allocatable\":{\"cpu\":\"100000\"}}}}\n");
    for (String type : new String[] {"ADDED", "MODIFIED"}) {
      for (int i = 0; i < pods; i++) {
        long ms = (type.equals("ADDED") ? 0 : 60_000L) + 60_000L * i / pods;
        out.append(String.format("{\"type\":\"%s\",\"at\":\"2026-03-01T12:%02d:%02d.%03dZ\",\"object\":{\"apiVersion\":\"v1\","
                + "\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%d\",\"namespace\":\"shop\",\"uid\":\"u%d\",\"resourceVersion\":\"%s\"},"
                + "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"%dm\"}}}]},"
                + "\"status\":{\"phase\":\"Running\"}}}%n", type, 1 + ms / 60_000, ms / 1000 % 60, ms % 1000, i, i,
            type.equals("ADDED") ? "1" : "2", type.equals("ADDED") ? 10 : 20));
      }
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }
}
