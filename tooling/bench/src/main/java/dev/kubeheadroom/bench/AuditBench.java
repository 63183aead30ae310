package dev.kubeheadroom.bench;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code headroom audit --at} over a week of input events (the target: 1,000,000 events
 * in ≤ 30 s). Starts an {@link EmbeddedKafka}, creates the topics ({@link TopicBootstrap}, six
 * partitions), produces a synthetic but shaped-like-ingest history, then times
 * {@link Audit#replay} over a {@link TopicHistory} to the last event, the same code path as the
 * CLI (same consumer settings as {@code AuditCommand}).
 *
 * <p>History: the config and 40 namespaces (half managed), {@code nodes} node snapshots and 30
 * pods per node published within the first seconds (a leader's full re-publish), then churn spread
 * over the rest of six and a half days: pod snapshot updates (one in ten changes a request),
 * pod removals and creations, node syncs, node snapshot updates.
 *
 * <pre>
 * java -Xmx3g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.AuditBench [events] [nodes] [runs]
 * </pre>
 */
public final class AuditBench {
  private static final String PREFIX = "headroom.";
  private static final int PODS_PER_NODE = 30;
  private static final int NAMESPACES = 40;

  private AuditBench() {}

  public static void main(String[] args) throws Exception {
    Args.quietLogs();
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 3_000;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    EmbeddedKafka.quietLogs();
    Path dataDir = Files.createTempDirectory("headroom-audit-bench-");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir))) {
      Topics topics = new Topics(PREFIX);
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(6), Duration.ofSeconds(60));
      }
      long started = System.nanoTime();
      Instant last = produce(kafka.bootstrapServers(), topics, events, nodes);
      System.out.printf(Locale.ROOT, "produced %,d events over %d nodes in %.1f s; last event at %s%n",
          events, nodes, seconds(System.nanoTime() - started), last);
      for (int run = 1; run <= runs; run++) {
        System.out.printf(Locale.ROOT, "run %d%n", run);
        readOnly(kafka.bootstrapServers(), topics);
        audit(kafka.bootstrapServers(), topics, last);
      }
    } finally {
      TempDirs.deleteQuietly(dataDir);
    }
  }

  /** Kafka read + k-way merge alone: every record through {@link TopicHistory#next()}. */
  private static void readOnly(String bootstrap, Topics topics) {
    TimedConsumer consumer = consumer(bootstrap);
    long started = System.nanoTime();
    long n = 0;
    try (TopicHistory history = new TopicHistory(consumer, Audit.inputTopics(topics), Duration.ofSeconds(60))) {
      while (history.next() != null) {
        n++;
      }
    }
    long total = System.nanoTime() - started;
    System.out.printf(Locale.ROOT,
        "  history only: %,d records in %.2f s (%,.0f records/s); in consumer calls %.2f s, merge %.2f s%n",
        n, seconds(total), n / seconds(total), seconds(consumer.inside.get()),
        seconds(total - consumer.inside.get()));
  }

  /** The audit as {@code headroom audit --at <last event>} runs it. */
  private static void audit(String bootstrap, Topics topics, Instant at) {
    TimedConsumer consumer = consumer(bootstrap);
    long started = System.nanoTime();
    try (TopicHistory history = new TopicHistory(consumer, Audit.inputTopics(topics), Duration.ofSeconds(60));
         Audit audit = Audit.replay(history, topics, at, (records, t) -> { })) {
      long total = System.nanoTime() - started;
      System.out.printf(Locale.ROOT,
          "  audit --at %s: %,d records, %,d decisions, %d nodes in %.2f s (%,.0f records/s); "
              + "in consumer calls %.2f s, merge + replay %.2f s%n",
          at, audit.records(), audit.decisions(), audit.nodes().size(), seconds(total),
          audit.records() / seconds(total), seconds(consumer.inside.get()),
          seconds(total - consumer.inside.get()));
    }
  }

  // ---- the history ----------------------------------------------------------------------------

  private record Pod(String uid, String namespace, String name, long requestMilli) {}

  private static Instant produce(String bootstrap, Topics topics, int events, int nodeCount) {
    return produce(bootstrap, topics, events, nodeCount, Duration.ofHours(156));
  }

  /** A producer's settings for filling a bench's history fast (acks 1, large lz4 batches). */
  static Map<String, Object> bulkProducer(String bootstrap) {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ProducerConfig.ACKS_CONFIG, "1");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
    return config;
  }

  /** As above over {@code span}, which the topics' retention must cover ({@code CheckpointAuditBench} widens it past 7 days). */
  static Instant produce(String bootstrap, Topics topics, int events, int nodeCount, Duration span) {
    Map<String, Object> config = bulkProducer(bootstrap);
    // Within retention: the oldest record must still be there when the audit reads.
    Instant start = Instant.now().minus(span).truncatedTo(ChronoUnit.SECONDS);
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
      Instant last = history((topic, key, value, at) -> producer.send(
          new ProducerRecord<>(topic, null, at.toEpochMilli(), key, JsonCodec.encode(value))),
          topics, events, nodeCount, start, span);
      producer.flush();
      return last;
    }
  }

  /**
   * The history itself, each event handed to {@code send} in order (the bench produces them;
   * CheckpointFoldTest keeps them in memory); returns the last event's time.
   */
  static Instant history(Sender send, Topics topics, int events, int nodeCount, Instant start, Duration span) {
    Random random = new Random(42);
    Instant end = start.plus(span).minus(Duration.ofMinutes(1)); // same shape every run
    List<String> nodes = new ArrayList<>();
    Map<String, List<Pod>> podsByNode = new HashMap<>();
    long[] serial = {0};
    int sent = 0;
    // The leader's first full re-publish, a few seconds long.
    ClusterConfig cluster = withGeneration(ClusterConfig.DEFAULTS, 1);
    send.send(topics.config(), HeadroomKeys.CONFIG_NAME, cluster, start);
    sent++;
    for (int i = 0; i < NAMESPACES; i++) {
      Map<String, String> labels = i % 2 == 0 ? Map.of(HeadroomKeys.MODE_LABEL, "managed") : Map.of();
      send.send(topics.namespaces(), namespace(i), new NamespaceInfo(namespace(i), labels, 0), start);
      sent++;
    }
    int initial = nodeCount * (1 + PODS_PER_NODE);
    for (int n = 0; n < nodeCount; n++) {
      String node = String.format(Locale.ROOT, "node-%05d", n);
      nodes.add(node);
      podsByNode.put(node, new ArrayList<>());
      send.send(topics.nodes(), node, nodeSnapshot(node, 0), at(start, Duration.ofSeconds(5), sent, initial));
      sent++;
    }
    for (String node : nodes) {
      for (int p = 0; p < PODS_PER_NODE; p++) {
        Pod pod = newPod(random, serial);
        podsByNode.get(node).add(pod);
        send.send(topics.pods(), node, snapshot(pod, node, serial[0]),
            at(start, Duration.ofSeconds(5), sent, initial));
        sent++;
      }
    }
    // Churn over the rest of the window.
    Instant churnStart = start.plus(Duration.ofMinutes(1));
    Duration churn = Duration.between(churnStart, end);
    int remaining = events - sent;
    Instant t = churnStart;
    for (int i = 0; i < remaining; i++) {
      t = at(churnStart, churn, i, remaining);
      String node = nodes.get(random.nextInt(nodes.size()));
      List<Pod> pods = podsByNode.get(node);
      int dice = random.nextInt(100);
      if (dice < 70 && !pods.isEmpty()) { // a pod update (status churn that passed the filter, a resize)
        int k = random.nextInt(pods.size());
        Pod pod = pods.get(k);
        if (random.nextInt(10) == 0) {
          pod = new Pod(pod.uid(), pod.namespace(), pod.name(), 50 + random.nextInt(20) * 25L);
          pods.set(k, pod);
        }
        send.send(topics.pods(), node, snapshot(pod, node, ++serial[0]), t);
      } else if (dice < 80 && !pods.isEmpty()) { // a pod leaves
        Pod pod = pods.remove(random.nextInt(pods.size()));
        send.send(topics.pods(), node, new PodRemoved(pod.uid(), pod.namespace(), pod.name(), node), t);
      } else if (dice < 90) { // a pod arrives
        Pod pod = newPod(random, serial);
        pods.add(pod);
        send.send(topics.pods(), node, snapshot(pod, node, serial[0]), t);
      } else if (dice < 98) { // the periodic node sync
        send.send(topics.pods(), node, new NodeSync(node, pods.stream().map(Pod::uid).toList()), t);
      } else { // a node's labels change
        send.send(topics.nodes(), node, nodeSnapshot(node, random.nextInt(4)), t);
      }
    }
    return t;
  }

  /** Where the history's events go, in order. */
  @FunctionalInterface
  interface Sender {
    void send(String topic, String key, Object value, Instant at);
  }

  private static Instant at(Instant from, Duration span, long i, long count) {
    return from.plusMillis(span.toMillis() * i / count);
  }

  private static String namespace(int i) {
    return "team-" + i;
  }

  private static Pod newPod(Random random, long[] serial) {
    long id = ++serial[0];
    String ns = namespace(random.nextInt(NAMESPACES));
    return new Pod(String.format(Locale.ROOT, "%08x-0000-4000-8000-%012x", id, id), ns,
        "app-" + Long.toString(id, 36) + "-" + Long.toString(random.nextInt(46_656), 36),
        50 + random.nextInt(20) * 25L);
  }

  private static PodSnapshot snapshot(Pod pod, String node, long resourceVersion) {
    List<ContainerSnapshot> containers = List.of(
        new ContainerSnapshot("app", ContainerKind.APP, pod.requestMilli(), pod.requestMilli() * 2, false, false),
        new ContainerSnapshot("proxy", ContainerKind.SIDECAR, 10, 100, false, false));
    String owner = pod.name().substring(0, pod.name().lastIndexOf('-'));
    return new PodSnapshot(pod.uid(), pod.namespace(), pod.name(), node, "Running", PodSnapshot.QOS_BURSTABLE,
        Long.toString(resourceVersion), 1, "", 0, null, false,
        List.of(new OwnerRef("ReplicaSet", owner, "rs-" + owner, true)), containers, ResizeStatus.NONE);
  }

  private static NodeSnapshot nodeSnapshot(String node, int zone) {
    return new NodeSnapshot(node, 15_890, "linux", false,
        Map.of("kubernetes.io/os", "linux", "topology.kubernetes.io/zone", "zone-" + zone,
            "node.kubernetes.io/instance-type", "m6i.4xlarge"));
  }

  private static ClusterConfig withGeneration(ClusterConfig c, long generation) {
    return new ClusterConfig(generation, c.policy(), c.dryRun(), c.minBurstFloorMilli(), c.maxMultiplier(),
        c.quantumMilli(), c.deadbandGrowPercent(), c.deadbandShrinkPercent(), c.debouncePeriod(),
        c.maxDebounceDelay(), c.backoffPeriod(), c.rateLimits(), c.webhook(), c.namespaceSelector(),
        c.excludedNamespaces());
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** The CLI's consumer ({@code AuditCommand.consumer}), timing what is spent inside Kafka calls. */
  static final class TimedConsumer extends KafkaConsumer<String, byte[]> {
    final AtomicLong inside = new AtomicLong();

    TimedConsumer(Map<String, Object> config) {
      super(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public ConsumerRecords<String, byte[]> poll(Duration timeout) {
      long t = System.nanoTime();
      try {
        return super.poll(timeout);
      } finally {
        inside.addAndGet(System.nanoTime() - t);
      }
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
      long t = System.nanoTime();
      try {
        return super.position(partition, timeout);
      } finally {
        inside.addAndGet(System.nanoTime() - t);
      }
    }

    @Override
    public void pause(java.util.Collection<TopicPartition> partitions) {
      long t = System.nanoTime();
      try {
        super.pause(partitions);
      } finally {
        inside.addAndGet(System.nanoTime() - t);
      }
    }

    @Override
    public void resume(java.util.Collection<TopicPartition> partitions) {
      long t = System.nanoTime();
      try {
        super.resume(partitions);
      } finally {
        inside.addAndGet(System.nanoTime() - t);
      }
    }
  }

  static TimedConsumer consumer(String bootstrap) {
    return consumer(bootstrap, Map.of());
  }

  /** The CLI's consumer settings, with {@code settings} on top. */
  static TimedConsumer consumer(String bootstrap, Map<String, Object> settings) {
    Map<String, Object> config = new HashMap<>(settings);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    return new TimedConsumer(config);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
