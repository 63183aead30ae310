package dev.kubeheadroom.bench;

import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.ReadRuns;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the read order costs a checkpoint ({@code NodeCheckpoint.order}): {@link AuditBench}'s
 * history (its node-keyed events over {@code nodes} nodes and {@code hours}) folded through the
 * topology, each record noted in {@link ReadRuns} as the checkpoint processor notes it (cleared
 * every 10 minutes of event time, as at a boundary); then the last boundary's checkpoints encoded
 * and decoded with the runs they got and without: bytes per checkpoint, CPU per record noted (the
 * history's records noted again in a loop of their own, boundary by boundary) and per checkpoint
 * encoded and decoded. And what keeping the order across a restart adds per record: the node's
 * runs encoded for the {@code headroom-checkpoint-cut} store and its key made (CPU, in the same
 * loop), the entry's bytes (key and value), and the entries a boundary deletes.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.CheckpointOrderCost [events] [nodes] [hours]
 * #   defaults: 300000 300 24
 * </pre>
 */
public final class CheckpointOrderCost {
  private static final java.lang.management.ThreadMXBean THREAD =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private CheckpointOrderCost() {}

  private record Read(String topic, String key, byte[] value, Instant at) {}

  public static void main(String[] args) {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    Duration span = Duration.ofHours(args.length > 2 ? Integer.parseInt(args[2]) : 24);
    Topics topics = Topics.defaults();
    Instant start = Instant.parse("2026-03-01T00:00:00Z");
    List<Read> log = new ArrayList<>();
    AuditBench.history((topic, key, value, at) -> log.add(new Read(topic, key, JsonCodec.encode(value), at)),
        topics, events, nodes, start, span);
    long interval = Duration.ofMinutes(10).toMillis();
    ReadRuns runs = new ReadRuns();
    List<NodeCheckpoint> last;
    long noteNanos = 0;
    long storeNanos = 0;
    long noted = 0;
    List<String> sources = List.of(topics.pods(), topics.nodes(), topics.outcomes());
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, start)) {
      long bucket = Long.MIN_VALUE;
      Instant lastBoundary = start;
      for (Read r : log) {
        engine.pipeRaw(r.topic(), r.key(), r.value(), r.at());
        engine.drainDecisions();
        long b = Math.floorDiv(r.at().toEpochMilli(), interval);
        if (b > bucket && r.at().isBefore(log.get(log.size() - 1).at().minusMillis(interval))) {
          bucket = b;
          lastBoundary = Instant.ofEpochMilli(b * interval);
          runs.clear();
        }
        if (r.key() != null && topics.nodeKeyed().contains(r.topic())) {
          runs.note(r.key(), r.topic());
        }
      }
      List<NodeCheckpoint.Position> cut = topics.nodeKeyed().stream()
          .map(t -> new NodeCheckpoint.Position(t, 0, 1_000_000)).toList();
      last = engine.checkpoints(lastBoundary, cut).stream().map(c -> c.withOrder(runs.of(c.node()))).toList();
    }
    // the noting alone, as the processor does it per record (a boundary clears), warmed up first;
    // then with the stored entry made, as the processor puts it (odd rounds)
    long entryBytes = 0;
    long entries = 0;
    long deleted = 0;
    long sink = 0;
    for (int round = 0; round < 12; round++) {
      boolean store = round % 2 == 1;
      ReadRuns timed = new ReadRuns();
      long bucket = Long.MIN_VALUE;
      long t = THREAD.getCurrentThreadCpuTime(); // CPU, not wall: the machine is shared
      for (Read r : log) {
        long b = Math.floorDiv(r.at().toEpochMilli(), interval);
        if (b > bucket) {
          bucket = b;
          deleted += store && round == 11 ? timed.nodes().size() : 0;
          timed.clear();
        }
        if (r.key() != null && sources.contains(r.topic())) {
          timed.note(r.key(), r.topic());
          if (store) {
            String key = '/' + r.key();
            byte[] value = timed.encoded(r.key(), sources);
            sink += key.length() + value.length;
            if (round == 11) {
              entryBytes += key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + value.length;
              entries++;
            }
          }
        }
      }
      if (round >= 6) {
        long spent = THREAD.getCurrentThreadCpuTime() - t;
        if (store) {
          storeNanos += spent;
        } else {
          noteNanos += spent;
          noted += log.size();
        }
      }
    }
    if (sink == 42) {
      System.out.println(); // keeps the work observable
    }
    long without = 0;
    long with = 0;
    long runCount = 0;
    for (NodeCheckpoint c : last) {
      without += CheckpointCodec.encode(c.withOrder(null)).length;
      with += CheckpointCodec.encode(c).length;
      runCount += c.order().size();
    }
    double[] plain = codecNanos(last.stream().map(c -> c.withOrder(null)).toList());
    double[] ordered = codecNanos(last);
    System.out.printf(Locale.ROOT, "%,d events over %,d nodes and %s; %,d records noted: %.1f CPU-ns each"
        + " (load average %s)%n", log.size(), nodes, span, noted, (double) noteNanos / noted,
        CheckpointAuditBench.loadAverage());
    System.out.printf(Locale.ROOT, "last boundary: %,d checkpoints, %.2f runs each; bytes per checkpoint %.1f without"
        + " the order, %.1f with it (+%.1f, +%.2f%%)%n", last.size(), (double) runCount / last.size(),
        (double) without / last.size(), (double) with / last.size(), (double) (with - without) / last.size(),
        100.0 * (with - without) / without);
    System.out.printf(Locale.ROOT, "encode %.0f CPU-ns / decode %.0f CPU-ns per checkpoint without the order, %.0f / %.0f"
        + " with it%n", plain[0], plain[1], ordered[0], ordered[1]);
    System.out.printf(Locale.ROOT, "kept across a restart: %.1f CPU-ns per record noted and its store entry made"
        + " (+%.1f); %,d entries of %.1f bytes (key and value) on average; %,d deleted at the boundaries"
        + " (%.1f per boundary)%n", (double) storeNanos / noted, (double) (storeNanos - noteNanos) / noted, entries,
        (double) entryBytes / entries, deleted, (double) deleted / Math.max(1, span.toMinutes() / 10));
    System.out.printf(Locale.ROOT, "the history folded through the topology again (warm; every store put, a commit per"
        + " record): %.2f CPU-us per record%n", foldNanos(log, topics, start) / 1e3 / log.size());
  }

  /** Thread CPU of one fold of {@code log} through the topology (the replay's: a commit per record). */
  private static long foldNanos(List<Read> log, Topics topics, Instant start) {
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, start)) {
      long t = THREAD.getCurrentThreadCpuTime();
      for (Read r : log) {
        engine.pipeRaw(r.topic(), r.key(), r.value(), r.at());
        engine.drainDecisions();
      }
      return THREAD.getCurrentThreadCpuTime() - t;
    }
  }

  /** Mean encode and decode time of {@code checkpoints}, after a warm-up. */
  private static double[] codecNanos(List<NodeCheckpoint> checkpoints) {
    long sink = 0;
    int rounds = Math.max(1, 200_000 / Math.max(1, checkpoints.size()));
    for (int i = 0; i < rounds; i++) {
      for (NodeCheckpoint c : checkpoints) {
        sink += CheckpointCodec.decode(CheckpointCodec.encode(c)).pods().size();
      }
    }
    long encode = 0;
    long decode = 0;
    for (int i = 0; i < rounds; i++) {
      for (NodeCheckpoint c : checkpoints) {
        long t = THREAD.getCurrentThreadCpuTime();
        byte[] b = CheckpointCodec.encode(c);
        long u = THREAD.getCurrentThreadCpuTime();
        sink += CheckpointCodec.decode(b).pods().size();
        decode += THREAD.getCurrentThreadCpuTime() - u;
        encode += u - t;
      }
    }
    if (sink == 42) {
      System.out.println(); // keeps the work observable
    }
    long n = (long) rounds * checkpoints.size();
    return new double[] {(double) encode / n, (double) decode / n};
  }
}
