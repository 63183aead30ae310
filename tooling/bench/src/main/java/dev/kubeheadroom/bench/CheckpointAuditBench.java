package dev.kubeheadroom.bench;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.CheckpointCut;
import dev.kubeheadroom.replay.CheckpointDerivation;
import dev.kubeheadroom.replay.CheckpointReader;
import dev.kubeheadroom.replay.NodeLookback;
import dev.kubeheadroom.replay.PodPlaces;
import dev.kubeheadroom.replay.StoredCut;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.CheckpointPartitioner;
import dev.kubeheadroom.topology.HeadroomTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code audit --at} from checkpoints: for each history length given, a fresh
 * embedded broker, {@link AuditBench}'s history with the event density fixed (the span grows
 * with the event count: 5,000,000 events over 156 hours), its checkpoints written to the
 * checkpoints topic as the live topology writes them (re-derived per partition, in parallel:
 * {@link CheckpointDerivation}, the path {@code audit --verify} takes, which a test holds equal
 * to the live topology's), then {@code audit --at T} timed for T an hour in, in the middle and
 * near the end (each the moment nearby farthest past its cut: {@link #farthestFromCut}), on the CLI's paths: every node ({@link CheckpointReader#latest}, a {@link
 * TopicHistory} from the cut, {@link Audit#resume}), one node ({@code --node}: {@link
 * CheckpointReader#latestOf}, the node's records only, then {@link Audit#complete}) and one pod
 * ({@code --pod}, a pod of that node: {@link CheckpointReader#latestStored}, {@link PodPlaces}).
 *
 * <pre>
 * java -Xmx6g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.CheckpointAuditBench [nodes] [events...]
 * #   defaults: 5000 1000000 5000000
 * </pre>
 */
public final class CheckpointAuditBench {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  /** The node {@code audit --at --node} asks about (one in the middle of the bench's names). */
  private static final String NODE = "node-02500";
  private static final Duration SPAN_PER_EVENT = Duration.ofHours(156).dividedBy(5_000_000);
  /**
   * {@code -Dderive=full}: the setup re-derives with the full topology ({@code audit --verify}'s
   * path, decisions included: hours at 5,000,000 events); by default it folds without deciding
   * ({@link CheckpointFold}, byte-identical on this log: CheckpointFoldTest).
   */
  private static final boolean FULL_DERIVATION = "full".equals(System.getProperty("derive"));
  /** {@code -Dfetch=both}: each audit again with the client's default fetch sizes. */
  private static final boolean BOTH_FETCH_SIZES = "both".equals(System.getProperty("fetch"));

  private CheckpointAuditBench() {}

  public static void main(String[] args) throws Exception {
    Args.quietLogs();
    EmbeddedKafka.quietLogs();
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    List<Integer> lengths = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      lengths.add(Integer.parseInt(args[i]));
    }
    if (lengths.isEmpty()) {
      lengths = List.of(1_000_000, 5_000_000);
    }
    for (int events : lengths) {
      run(nodes, events);
    }
  }

  private static void run(int nodes, int events) throws Exception {
    Path dataDir = Files.createTempDirectory("headroom-checkpoint-bench-");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir))) {
      Topics topics = Topics.defaults();
      Duration span = SPAN_PER_EVENT.multipliedBy(events);
      // The audit window is the topics' retention: past 5,000,000 events the span outgrows the
      // default 7 days, and the broker would delete the history's start (and its checkpoints)
      // while the bench reads it, so the window is widened as an operator keeping it would.
      Duration retention = span.plusDays(1).compareTo(TopicLayout.DEFAULT_RETENTION) > 0
          ? span.plusDays(1) : TopicLayout.DEFAULT_RETENTION;
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, new TopicLayout(6, (short) 1, retention), Duration.ofSeconds(60));
      }
      System.out.println("  load average: " + loadAverage());
      long t = System.nanoTime();
      long cpu = ProcessCpu.nanos();
      Instant last = AuditBench.produce(kafka.bootstrapServers(), topics, events, nodes, span);
      System.out.printf(Locale.ROOT, "%,d events over %,d nodes and %s: produced in %.1f s (%.1f CPU-s); last event at %s%n",
          events, nodes, span, seconds(System.nanoTime() - t), seconds(ProcessCpu.nanos() - cpu), last);
      t = System.nanoTime();
      cpu = ProcessCpu.nanos();
      long written = writeCheckpoints(kafka.bootstrapServers(), topics, last);
      System.out.printf(Locale.ROOT, "  checkpoints (%s): %,d derived and written in %.1f s (%.1f CPU-s); load average %s%n",
          FULL_DERIVATION ? "full derivation" : "fold", written, seconds(System.nanoTime() - t),
          seconds(ProcessCpu.nanos() - cpu), loadAverage());
      Instant first = last.minus(span);
      // the start (an hour in: the first boundaries plus the settling), the middle, the end; each
      // the worst moment near them (farthest past its cut)
      List<Instant> moments = List.of(farthestFromCut(first.plus(Duration.ofHours(1))),
          farthestFromCut(first.plus(span.dividedBy(2))), farthestFromCut(last.minusSeconds(1)));
      for (Instant at : moments) {
        for (int run = 1; run <= 3; run++) {
          if (!audit(kafka.bootstrapServers(), topics, at, "run " + run, CheckpointReader.consumerSettings())) {
            continue; // the node and pod paths start from the same cut
          }
          PodRef pod = auditNode(kafka.bootstrapServers(), topics, at, NODE, "run " + run);
          auditPod(kafka.bootstrapServers(), topics, at, pod, "run " + run);
          if (BOTH_FETCH_SIZES) { // the client's default: 1 MB per partition per fetch
            audit(kafka.bootstrapServers(), topics, at, "run " + run + ", default fetch sizes", Map.of());
          }
        }
      }
      // -Drepeat=N: N more rounds a minute apart, to catch the shared machine when its load drops
      int repeat = Integer.getInteger("repeat", 0);
      for (int round = 1; round <= repeat; round++) {
        Thread.sleep(60_000);
        for (Instant at : moments) {
          if (!audit(kafka.bootstrapServers(), topics, at, "repeat " + round, CheckpointReader.consumerSettings())) {
            continue; // the node and pod paths start from the same cut
          }
          PodRef pod = auditNode(kafka.bootstrapServers(), topics, at, NODE, "repeat " + round);
          auditPod(kafka.bootstrapServers(), topics, at, pod, "repeat " + round);
          if (BOTH_FETCH_SIZES) {
            audit(kafka.bootstrapServers(), topics, at, "repeat " + round + ", default fetch sizes", Map.of());
          }
        }
      }
    } finally {
      TempDirs.deleteQuietly(dataDir);
    }
  }

  /**
   * The latest moment at or before {@code t} one second short of a boundary plus {@link
   * Audit#SETTLE} plus an interval: its cut (the last boundary {@code SETTLE} before it) is the
   * farthest back an audit starts, so it replays the most and crosses a boundary.
   */
  static Instant farthestFromCut(Instant t) {
    long interval = HeadroomTopology.CHECKPOINT_INTERVAL.toMillis();
    long past = Audit.SETTLE.toMillis() + interval - 1_000;
    return Instant.ofEpochMilli(Math.floorDiv(t.toEpochMilli() - past, interval) * interval + past);
  }

  /** One replay per partition, in parallel; every checkpoint produced with its boundary as time. */
  private static long writeCheckpoints(String bootstrap, Topics topics, Instant until) throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
    config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256L * 1024 * 1024);
    config.put(ProducerConfig.ACKS_CONFIG, "1");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    AtomicLong written = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
      List<Future<Long>> futures = new ArrayList<>();
      for (int p = 0; p < 6; p++) {
        int partition = p;
        futures.add(pool.submit(() -> {
          try (TopicHistory history = new TopicHistory(AuditBench.consumer(bootstrap), Audit.inputTopics(topics),
              Duration.ofSeconds(60), new TopicHistory.Scope(Map.of(),
                  tp -> topics.compacted().contains(tp.topic()) || tp.partition() == partition))) {
            java.util.function.Consumer<NodeCheckpoint> sink = c -> {
              // the node's partition, as the topology's CheckpointPartitioner puts it
              producer.send(new ProducerRecord<>(topics.checkpoints(), CheckpointPartitioner.partition(c.node(), 6),
                  c.at().toEpochMilli(), c.key(), CheckpointCodec.encode(c)));
              written.incrementAndGet();
            };
            return FULL_DERIVATION ? CheckpointDerivation.derive(history, topics, until, sink, () -> { })
                : CheckpointFold.derive(history, topics, until, sink);
          }
        }));
      }
      for (Future<Long> f : futures) {
        f.get();
      }
      producer.flush();
    } finally {
      pool.shutdownNow();
    }
    return written.get();
  }

  /**
   * {@code headroom audit --at} as the CLI runs it (AuditReplay): from the last checkpoint {@link
   * Audit#SETTLE} or more before the moment, every node.
   */
  private static boolean audit(String bootstrap, Topics topics, Instant at, String run, Map<String, Object> reader) {
    long cpu = ProcessCpu.nanos(); // the broker runs in this JVM: its CPU counts too
    long t = System.nanoTime();
    CheckpointCut cut;
    try (var consumer = AuditBench.consumer(bootstrap, reader)) {
      var latest = new CheckpointReader(consumer, TIMEOUT).latest(topics.checkpoints(), at.minus(Audit.SETTLE));
      if (latest.isEmpty()) { // the CLI would replay from the beginning: not what this bench times
        System.out.printf(Locale.ROOT, "  audit --at %s (%s): no checkpoint %s or more before it: skipped%n",
            at, run, Audit.SETTLE);
        return false;
      }
      cut = latest.get();
    }
    long found = System.nanoTime() - t;
    long foundCpu = ProcessCpu.nanos() - cpu;
    try (TopicHistory history = new TopicHistory(AuditBench.consumer(bootstrap), Audit.inputTopics(topics),
        TIMEOUT, Audit.scope(cut, topics));
         Audit audit = Audit.resume(cut, history, topics, at, (n, when) -> { })) {
      long total = System.nanoTime() - t;
      System.out.printf(Locale.ROOT,
          "  audit --at %s (%s): %.2f s, %.2f CPU-s (process, broker included); checkpoint at %s, %,d nodes,"
              + " read in %.2f s (%.2f CPU-s); then %,d records replayed in %.2f s (%.2f CPU-s), %,d nodes at T;"
              + " load average %s%n",
          at, run, seconds(total), seconds(ProcessCpu.nanos() - cpu), cut.at(), cut.nodes().size(),
          seconds(found), seconds(foundCpu), audit.records(), seconds(total - found),
          seconds(ProcessCpu.nanos() - cpu - foundCpu), audit.nodes().size(), loadAverage());
    }
    return true;
  }

  /** A pod the node holds at the moment: the one {@code audit --at --pod} asks about. */
  private record PodRef(String namespace, String name) {}

  /**
   * {@code headroom audit --at --pod} as the CLI runs it (AuditReplay.replayPod, then the
   * look-back): the stored cut read whole but decoded only where the pod's name is, the pods
   * topic past the cut read for its snapshots, then only its nodes' records folded.
   */
  private static void auditPod(String bootstrap, Topics topics, Instant at, PodRef pod, String run) {
    long cpu = ProcessCpu.nanos();
    long t = System.nanoTime();
    StoredCut stored;
    try (var consumer = AuditBench.consumer(bootstrap, CheckpointReader.consumerSettings())) {
      stored = new CheckpointReader(consumer, TIMEOUT).latestStored(topics.checkpoints(), at.minus(Audit.SETTLE))
          .orElseThrow();
    }
    long[] read = {System.nanoTime() - t, ProcessCpu.nanos() - cpu};
    try (Audit audit = new PodPlaces(pod.namespace(), pod.name()).replay(stored, () -> AuditBench.consumer(bootstrap),
        TIMEOUT, topics, at, (n, when) -> { })) {
      long[] replayed = {System.nanoTime() - t, ProcessCpu.nanos() - cpu};
      Map.Entry<String, String> where = audit.locate(pod.namespace(), pod.name()).orElseThrow();
      try (var consumer = AuditBench.consumer(bootstrap, NodeLookback.consumerSettings())) {
        audit.complete(new NodeLookback(consumer, TIMEOUT), topics, where.getKey(), Set.of(where.getValue()));
      }
      long total = System.nanoTime() - t;
      long totalCpu = ProcessCpu.nanos() - cpu;
      System.out.printf(Locale.ROOT,
          "  audit --at %s --pod %s/%s (%s): %.2f s, %.2f CPU-s (process, broker included); checkpoint at %s"
              + " (%,d nodes) read in %.2f s (%.2f CPU-s); %d node(s) replayed, %,d records in %.2f s (%.2f CPU-s);"
              + " look-back %.2f s (%.2f CPU-s); load average %s%n",
          at, pod.namespace(), pod.name(), run, seconds(total), seconds(totalCpu), stored.at(), stored.size(),
          seconds(read[0]), seconds(read[1]), audit.nodes().size(), audit.records(), seconds(replayed[0] - read[0]),
          seconds(replayed[1] - read[1]), seconds(total - replayed[0]), seconds(totalCpu - replayed[1]),
          loadAverage());
    }
  }

  /**
   * {@code headroom audit --at --node} as the CLI runs it (AuditReplay.replayNode, then the
   * look-back of AuditReplay.complete): the node's checkpoint and its records only.
   */
  private static PodRef auditNode(String bootstrap, Topics topics, Instant at, String node, String run) {
    long cpu = ProcessCpu.nanos();
    long t = System.nanoTime();
    CheckpointCut cut;
    try (var consumer = AuditBench.consumer(bootstrap, CheckpointReader.consumerSettings())) {
      cut = new CheckpointReader(consumer, TIMEOUT).latestOf(topics.checkpoints(), at.minus(Audit.SETTLE), node)
          .orElseThrow();
    }
    long[] read = {System.nanoTime() - t, ProcessCpu.nanos() - cpu};
    try (TopicHistory history = new TopicHistory(AuditBench.consumer(bootstrap), Audit.inputTopics(topics),
        TIMEOUT, Audit.scope(cut, topics));
         Audit audit = Audit.resumeNode(cut, history, topics, at, node, (n, when) -> { })) {
      long[] replayed = {System.nanoTime() - t, ProcessCpu.nanos() - cpu};
      long back;
      try (var consumer = AuditBench.consumer(bootstrap, NodeLookback.consumerSettings())) {
        back = audit.complete(new NodeLookback(consumer, TIMEOUT), topics, node,
            audit.booking(node).pods().keySet()).map(Audit.Recalled::records).orElse(0L);
      }
      long total = System.nanoTime() - t;
      long totalCpu = ProcessCpu.nanos() - cpu;
      System.out.printf(Locale.ROOT,
          "  audit --at %s --node %s (%s): %.2f s, %.2f CPU-s (process, broker included); checkpoint at %s"
              + " (%d of the node) read in %.2f s (%.2f CPU-s); %,d records replayed in %.2f s (%.2f CPU-s);"
              + " %d pods, %,d records read back in %.2f s (%.2f CPU-s); load average %s%n",
          at, node, run, seconds(total), seconds(totalCpu), cut.at(), cut.nodes().size(), seconds(read[0]),
          seconds(read[1]), audit.records(), seconds(replayed[0] - read[0]), seconds(replayed[1] - read[1]),
          audit.booking(node).pods().size(), back, seconds(total - replayed[0]), seconds(totalCpu - replayed[1]),
          loadAverage());
      var first = audit.booking(node).pods().values().iterator().next().pod();
      return new PodRef(first.namespace(), first.name());
    }
  }

  /** {@code uptime}'s three figures: the machine is shared, so each timing is printed with them. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " / " + f[1] + " / " + f[2];
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
