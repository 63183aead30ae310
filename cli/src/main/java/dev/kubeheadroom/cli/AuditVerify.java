package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.CheckpointDerivation;
import dev.kubeheadroom.replay.CheckpointDerivation.Boundary;
import dev.kubeheadroom.replay.DecisionVerifier;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.HeadroomTopology;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;

/**
 * {@code audit --verify}: in parallel, one worker per partition on all cores, (1) every recorded
 * decision in the window re-derived from the inputs it carries, and (2) every checkpoint in the
 * window re-derived by replaying its task's history (the global topics and one partition of the
 * node-keyed ones) up to the stored one's cut and compared byte for byte with it.
 */
final class AuditVerify {
  /**
   * What one worker found: its lines of output and its counts (unverifiable: checkpoints that
   * differ where the read order they were folded in is not known, not counted as differing).
   */
  record Found(int order, List<String> lines, long checked, long differing, long unverifiable) {}

  /**
   * The totals: decisions and checkpoints checked, how many of each differ, and the checkpoints
   * not verifiable exactly (read order not recorded: {@link CheckpointDerivation.Sink}).
   */
  record Result(List<String> lines, long decisions, long decisionsDiffering, long checkpoints,
      long checkpointsDiffering, long checkpointsUnverifiable) {}

  /**
   * The stored checkpoints in the window: digests by key; per task partition, the cut of each
   * boundary (what the re-derivation folds up to, from one interval before the window: where the
   * first one's read order starts) and each node's read order; the keys stored without a cut
   * (format 2 or JSON), compared without the cut a re-derivation gives them.
   */
  private record Stored(Map<String, byte[]> digests, Map<Integer, Map<Instant, Boundary>> cuts,
      Set<String> withoutCut) {}

  private final KafkaConnection connection;
  private final Topics topics;
  private final Instant from;
  private final Instant to;

  AuditVerify(KafkaConnection connection, Topics topics, Instant from, Instant to) {
    this.connection = connection;
    this.topics = topics;
    this.from = from;
    this.to = to;
  }

  Result run(Progress shown, int threads) throws InterruptedException {
    Stored all = storedCheckpoints();
    Map<String, byte[]> stored = all.digests();
    int decisionPartitions = partitions(topics.decisions());
    int taskPartitions = partitions(topics.pods());
    // Sizes first, so the progress knows its 100%.
    List<TopicHistory> decisionHistories = new ArrayList<>();
    List<TopicHistory> taskHistories = new ArrayList<>();
    Set<String> unmatched = ConcurrentHashMap.newKeySet();
    unmatched.addAll(stored.keySet());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int p = 0; p < decisionPartitions; p++) {
        int partition = p;
        decisionHistories.add(history(List.of(topics.decisions()), tp -> tp.partition() == partition));
      }
      for (int p = 0; p < taskPartitions; p++) {
        int partition = p;
        taskHistories.add(history(dev.kubeheadroom.replay.Audit.inputTopics(topics),
            tp -> topics.compacted().contains(tp.topic()) || tp.partition() == partition));
      }
      long total = 0;
      for (TopicHistory h : decisionHistories) {
        total += h.size();
      }
      for (TopicHistory h : taskHistories) {
        total += h.size();
      }
      VerifyProgress progress = new VerifyProgress(shown, total);
      List<Future<Found>> decisions = new ArrayList<>();
      for (int i = 0; i < decisionHistories.size(); i++) {
        TopicHistory h = decisionHistories.get(i);
        int order = i;
        decisions.add(pool.submit(() -> decisions(order, h, progress)));
      }
      List<Future<Found>> checkpoints = new ArrayList<>();
      for (int i = 0; i < taskHistories.size(); i++) {
        TopicHistory h = taskHistories.get(i);
        int order = i;
        checkpoints.add(pool.submit(() -> checkpoints(order, h, all, unmatched, progress)));
      }
      List<String> lines = new ArrayList<>();
      long[] d = collect(decisions, lines);
      long[] c = collect(checkpoints, lines);
      progress.finish();
      for (String key : new TreeMap<>(Map.copyOf(stored)).keySet()) {
        if (unmatched.contains(key)) {
          lines.add("checkpoint " + key + ": stored, but the log does not re-derive it");
          c[1]++;
        }
      }
      return new Result(lines, d[0], d[1], c[0], c[1], c[2]);
    } finally {
      pool.shutdownNow();
      decisionHistories.forEach(TopicHistory::close);
      taskHistories.forEach(TopicHistory::close);
    }
  }

  private long[] collect(List<Future<Found>> futures, List<String> lines) throws InterruptedException {
    long checked = 0;
    long differing = 0;
    long unverifiable = 0;
    for (Future<Found> f : futures) {
      try {
        Found found = f.get();
        lines.addAll(found.lines());
        checked += found.checked();
        differing += found.differing();
        unverifiable += found.unverifiable();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(cause);
      }
    }
    return new long[] {checked, differing, unverifiable};
  }

  private TopicHistory history(List<String> names, java.util.function.Predicate<org.apache.kafka.common.TopicPartition> include) {
    return new TopicHistory(AuditCommand.consumer(connection), names, AuditCommand.KAFKA_TIMEOUT,
        new TopicHistory.Scope(Map.of(), include));
  }

  private int partitions(String topic) {
    try (KafkaConsumer<String, byte[]> c = AuditCommand.consumer(connection)) {
      List<PartitionInfo> infos = c.partitionsFor(topic, AuditCommand.KAFKA_TIMEOUT);
      if (infos == null || infos.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " does not exist");
      }
      return infos.size();
    }
  }

  /** One partition of the decisions topic: each decision re-derived from the inputs it carries. */
  private Found decisions(int order, TopicHistory history, VerifyProgress progress) {
    List<String> lines = new ArrayList<>();
    long checked = 0;
    long differing = 0;
    Map<String, List<NodeDecision>> parts = new HashMap<>(); // parts read so far, by node
    ConsumerRecord<String, byte[]> r;
    while ((r = history.next()) != null) {
      progress.step();
      Instant t = Instant.ofEpochMilli(r.timestamp());
      if (t.isAfter(to) || t.isBefore(from) || r.value() == null) {
        continue;
      }
      NodeDecision d;
      try {
        d = JsonCodec.decode(r.value(), NodeDecision.class);
      } catch (SchemaException e) {
        lines.add(String.format("%s partition %d offset %d: unreadable (%s)", r.topic(), r.partition(), r.offset(),
            e.getMessage()));
        differing++;
        continue;
      }
      // A decision split into parts (topology DESIGN.md) is re-derived once all are read.
      List<NodeDecision> read = parts.computeIfAbsent(d.node(), n -> new ArrayList<>());
      read.add(d);
      if (!d.complete()) {
        continue;
      }
      parts.remove(d.node());
      try {
        d = NodeDecision.join(read);
      } catch (IllegalArgumentException e) {
        lines.add(String.format("%s partition %d offset %d: %s", r.topic(), r.partition(), r.offset(), e.getMessage()));
        differing++;
        continue;
      }
      checked++;
      List<String> problems = DecisionVerifier.verify(d);
      if (!problems.isEmpty()) {
        differing++;
        lines.add(String.format("%s node %s%s (offset %d):", d.at(), d.node(),
            d.pool() == null ? "" : " in pool " + d.pool(), r.offset()));
        problems.forEach(p -> lines.add("  " + p));
      }
    }
    return new Found(order, lines, checked, differing, 0);
  }

  /** One task's history replayed: each checkpoint it writes in the window against the stored one. */
  private Found checkpoints(int order, TopicHistory history, Stored stored, Set<String> unmatched,
      VerifyProgress progress) {
    List<String> lines = new ArrayList<>();
    long[] counts = new long[3];
    // A checkpoint at B is written by the first record at or past B: read one interval further.
    Instant until = to.plus(HeadroomTopology.CHECKPOINT_INTERVAL);
    Map<Instant, Boundary> cuts = stored.cuts().getOrDefault(order, Map.of());
    CheckpointDerivation.deriveAt(history, topics, until, cuts, (c, orderUnknown) -> {
      if (c.at().isBefore(from) || c.at().isAfter(to)) {
        return;
      }
      byte[] want = stored.digests().get(c.key());
      if (want == null) {
        return; // not stored (the task was down, or restarted inside that interval): nothing to compare
      }
      unmatched.remove(c.key());
      counts[0]++;
      NodeCheckpoint derived = stored.withoutCut().contains(c.key()) ? c.withCut(List.of()) : c;
      if (Arrays.equals(want, digest(CheckpointCodec.encode(derived)))) {
        return;
      }
      if (orderUnknown) {
        counts[2]++;
        lines.add("checkpoint " + c.key() + ": not verifiable exactly: read order not recorded (written before format 5,"
            + " or in the interval its task was upgraded); folded by record time it differs");
      } else {
        counts[1]++;
        lines.add("checkpoint " + c.key() + ": the stored booking differs from the one the log re-derives");
      }
    }, progress::step);
    return new Found(order, lines, counts[0], counts[1], counts[2]);
  }

  /** The stored checkpoints in the window, as digests (a topic of them need not fit in memory). */
  private Stored storedCheckpoints() {
    Map<String, byte[]> out = new HashMap<>();
    Map<Integer, Map<Instant, List<Position>>> cuts = new HashMap<>();
    Map<Integer, Map<Instant, Map<String, List<Run>>>> orders = new HashMap<>();
    Set<String> withoutCut = new HashSet<>();
    Instant before = from.minus(HeadroomTopology.CHECKPOINT_INTERVAL); // the first boundary's previous one
    try (TopicHistory h = new TopicHistory(AuditCommand.consumer(connection), List.of(topics.checkpoints()),
        AuditCommand.KAFKA_TIMEOUT, new TopicHistory.Scope(Map.of(topics.checkpoints(), before), tp -> true))) {
      ConsumerRecord<String, byte[]> r;
      while ((r = h.next()) != null) {
        Instant t = Instant.ofEpochMilli(r.timestamp());
        if (t.isAfter(to) || t.isBefore(before)) {
          continue;
        }
        if (r.value() == null) {
          out.remove(r.key());
          withoutCut.remove(r.key());
          continue;
        }
        NodeCheckpoint head = head(r.value());
        List<Position> cut = head == null ? List.of() : head.cut();
        if (!cut.isEmpty()) {
          // one task writes a boundary's checkpoints with one cut: the first one read stands
          int partition = cut.get(0).partition();
          cuts.computeIfAbsent(partition, p -> new HashMap<>()).putIfAbsent(t, cut);
          Map<String, List<Run>> byNode = orders.computeIfAbsent(partition, p -> new HashMap<>())
              .computeIfAbsent(t, b -> new HashMap<>());
          if (head.order() != null) {
            byNode.put(head.node(), head.order());
          } else {
            byNode.remove(head.node()); // a later twin without one: the one compared
          }
        }
        if (t.isBefore(from)) {
          continue; // only its cut and order: where the window's first interval starts
        }
        out.put(r.key(), digest(canonical(r.value())));
        if (cut.isEmpty()) {
          withoutCut.add(r.key());
        } else {
          withoutCut.remove(r.key()); // a later twin (a restarted task) written with a cut
        }
      }
    } catch (IllegalStateException e) {
      return new Stored(Map.of(), Map.of(), Set.of()); // no checkpoints topic: a pipeline from before checkpoints
    }
    Map<Integer, Map<Instant, Boundary>> boundaries = new HashMap<>();
    cuts.forEach((partition, byTime) -> byTime.forEach((t, cut) -> boundaries.computeIfAbsent(partition,
        p -> new HashMap<>()).put(t, new Boundary(cut, orders.getOrDefault(partition, Map.of()).getOrDefault(t,
        Map.of())))));
    return new Stored(out, boundaries, withoutCut);
  }

  /** A stored checkpoint's cut and read order, or null when unreadable (it then differs whatever is derived). */
  private static NodeCheckpoint head(byte[] value) {
    try {
      return CheckpointCodec.head(value);
    } catch (SchemaException e) {
      return null;
    }
  }

  /**
   * A stored checkpoint in the current binary form, so one written in an earlier format (JSON, 2
   * before the cut, 3 before the pod layout) or pod layout is compared by content; an unreadable
   * one as stored (it then differs).
   */
  private static byte[] canonical(byte[] value) {
    if (value.length == 0 || CheckpointCodec.current(value)) {
      return value;
    }
    try {
      return CheckpointCodec.encode(CheckpointCodec.decode(value));
    } catch (SchemaException e) {
      return value;
    }
  }

  private static byte[] digest(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
