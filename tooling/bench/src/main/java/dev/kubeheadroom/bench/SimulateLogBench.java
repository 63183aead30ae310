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
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code simulate} on an existing watch log (e.g. {@link SimulateRateBench}'s {@code --keep-log}),
 * {@code runs} times in one JVM: per run the wall rate, the process's CPU seconds per 100,000
 * events, the main thread's and the reader thread's (the one {@code Simulation} reads the log on)
 * CPU seconds per 100,000 events, the bytes each of them allocated per event (steady under load,
 * unlike CPU time: what to compare builds by when the machine is shared), the collectors' time,
 * and the MD5 of the report's JSON exactly
 * as {@code headroom simulate -o json} prints it, so a change to the engine can be held to the
 * same output while it is profiled. Under a shared machine's load the per-thread CPU is the
 * steadier figure: wall time and process CPU move with the neighbours.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.SimulateLogBench /tmp/trace.jsonl 5
 * </pre>
 */
public final class SimulateLogBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private SimulateLogBench() {}

  public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
    Args.quietLogs();
    Path log = Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    for (int r = 0; r < runs; r++) {
      long gc = gcMillis();
      long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
      long cpu = ProcessCpu.nanos();
      long main = THREADS.getCurrentThreadCpuTime();
      long mainBytes = allocated(Thread.currentThread().getId());
      long start = System.nanoTime();
      ClusterReport report;
      AtomicLong reader = new AtomicLong(-1);
      AtomicLong readerBytes = new AtomicLong(-1);
      try (Stream<WatchLogItem> items = WatchLogReader.readForProjection(log)) {
        report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE)
            .run(timedOnItsThread(items.iterator(), reader, readerBytes));
      }
      long wall = System.nanoTime() - start;
      long mainUsed = THREADS.getCurrentThreadCpuTime() - main;
      long mainAllocated = allocated(Thread.currentThread().getId()) - mainBytes;
      long used = ProcessCpu.nanos() - cpu;
      long gcUsed = gcMillis() - gc;
      long jitUsed = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit;
      StringWriter json = new StringWriter();
      ReportWriter.json(report, new PrintWriter(json));
      byte[] md5 = MessageDigest.getInstance("MD5").digest(json.toString().getBytes(StandardCharsets.UTF_8));
      long events = report.summary().events();
      double per100k = 100_000.0 / events / 1e9;
      System.out.printf("run %d: %d events, %d decisions, %d patches, %.0f events/s, CPU-s per 100k: "
              + "process %.2f, main %.2f, reader %.2f; allocated bytes per event: main %.0f, reader %.0f; "
              + "GC %.2f s, JIT %.2f s, load %.1f, md5 %s%n", r, events,
          report.summary().decisions(), report.summary().patches(), events * 1e9 / wall, used * per100k,
          mainUsed * per100k, reader.get() * per100k, (double) mainAllocated / events,
          (double) readerBytes.get() / events, gcUsed / 1e3, jitUsed / 1e3,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), HexFormat.of().formatHex(md5));
    }
  }

  /**
   * The source as it is, recording the CPU time of the thread that drains it once it is drained:
   * the reader thread ends with the run, and a dead thread's CPU time can no longer be read.
   */
  private static <T> Iterator<T> timedOnItsThread(Iterator<T> source, AtomicLong cpuNanos, AtomicLong bytes) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        boolean more = source.hasNext();
        if (!more) {
          cpuNanos.set(THREADS.getCurrentThreadCpuTime());
          bytes.set(allocated(Thread.currentThread().getId()));
        }
        return more;
      }

      @Override
      public T next() {
        return source.next();
      }
    };
  }

  /** Bytes the thread allocated so far (HotSpot's per-thread counter), or -1 where not measured. */
  private static long allocated(long threadId) {
    return THREADS instanceof com.sun.management.ThreadMXBean hotspot ? hotspot.getThreadAllocatedBytes(threadId) : -1;
  }

  /** Time the collectors spent so far (wall milliseconds, pauses and concurrent work). */
  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }
}
