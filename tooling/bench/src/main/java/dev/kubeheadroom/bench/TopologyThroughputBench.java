package dev.kubeheadroom.bench;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.projection.ConfigProjection;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.scenarios.Scenario;
import dev.kubeheadroom.scenarios.ScenarioEvent;
import dev.kubeheadroom.scenarios.SyntheticScenario;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Throughput of the Headroom topology on a real (in-JVM) broker, against two yardsticks on the
 * same broker, the same record bytes and the same volume:
 *
 * <ol>
 *   <li>a plain consumer reading every record;
 *   <li>a minimal exactly_once_v2 Streams app doing one cached key-value read-modify-write per
 *       record (persistent store, caching on, changelog on, default 100 ms commit interval, the
 *       same 16 MB cache as Headroom);
 *   <li>the Headroom topology ({@link TopologyRunner}, production settings) over node and pod
 *       events projected from a {@link SyntheticScenario} over a few thousand nodes.
 * </ol>
 *
 * Records are produced first; each app then starts from the beginning under a fresh group, and
 * the clock runs from the moment it is RUNNING until its committed offsets reach the end of its
 * input (consumer lag 0). Each app runs {@code --runs} times in the same JVM.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.TopologyThroughputBench \
 *     [--nodes 3000] [--pods 20000] [--records 300000] [--partitions 4] [--runs 3] [--apps abc]
 * </pre>
 */
public final class TopologyThroughputBench {
  private static final String RMW_TOPIC = "bench.rmw";
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private TopologyThroughputBench() {}

  public static void main(String[] args) throws Exception {
    Args.quietLogs();
    Map<String, String> opts = Args.parse(args);
    int nodes = Integer.parseInt(opts.getOrDefault("nodes", "3000"));
    int pods = Integer.parseInt(opts.getOrDefault("pods", "20000"));
    long wanted = Long.parseLong(opts.getOrDefault("records", "300000"));
    int partitions = Integer.parseInt(opts.getOrDefault("partitions", "4"));
    int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));

    long t0 = System.nanoTime();
    Input input = input(nodes, pods);
    System.out.printf("input: %d nodes, %d pods placed -> %d node records + %d pod records per pass, "
            + "mean value %d bytes (projected in %.1f s)%n", nodes, input.placed, input.nodeRecords.size(),
        input.podRecords.size(), input.meanBytes(), (System.nanoTime() - t0) / 1e9);

    Path dir = Files.createTempDirectory("headroom-topology-bench-");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      Topics topics = Topics.defaults();
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(partitions), Duration.ofSeconds(60));
      }
      kafka.createTopics(Map.of(RMW_TOPIC, partitions), Map.of());
      long produced = produce(kafka, topics, input, wanted);
      System.out.printf("produced %d records to %s+%s and the same to %s (%d partitions each)%n",
          produced, topics.nodes(), topics.pods(), RMW_TOPIC, partitions);

      Map<String, List<Double>> rates = new HashMap<>();
      for (int run = 1; run <= runs; run++) {
        String apps = opts.getOrDefault("apps", "abc");
        double a = apps.contains("a") ? plainConsumer(kafka, produced) : Double.NaN;
        double b = apps.contains("b")
            ? readModifyWrite(kafka, dir.resolve("rmw-" + run), "bench-rmw-" + run, produced) : Double.NaN;
        double c = apps.contains("c")
            ? headroom(kafka, topics, dir.resolve("headroom-" + run), "bench-headroom-" + run) : Double.NaN;
        rates.computeIfAbsent("a", k -> new ArrayList<>()).add(a);
        rates.computeIfAbsent("b", k -> new ArrayList<>()).add(b);
        rates.computeIfAbsent("c", k -> new ArrayList<>()).add(c);
        System.out.printf("run %d: (a) plain consumer %.0f rec/s, (b) EOS read-modify-write %.0f rec/s, "
                + "(c) Headroom %.0f rec/s; (c)/(b) %.2f, (c)/(a) %.3f; load %.2f%n", run, a, b, c, c / b, c / a,
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      }
      System.out.printf("median: (a) %.0f, (b) %.0f, (c) %.0f rec/s; (c)/(b) %.2f, (c)/(a) %.3f%n",
          median(rates.get("a")), median(rates.get("b")), median(rates.get("c")),
          median(rates.get("c")) / median(rates.get("b")), median(rates.get("c")) / median(rates.get("a")));
      System.out.printf("spread (min-max): (a) %.0f-%.0f, (b) %.0f-%.0f, (c) %.0f-%.0f rec/s%n",
          min(rates.get("a")), max(rates.get("a")), min(rates.get("b")), max(rates.get("b")),
          min(rates.get("c")), max(rates.get("c")));
      System.out.printf("machine: %d cores, load average %.2f (1 min, at the end)%n",
          Runtime.getRuntime().availableProcessors(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    } finally {
      TempDirs.deleteQuietly(dir);
    }
  }

  /** Projected records of one scenario pass, keyed by node, in time order. */
  private record Input(List<ProducerRecord<String, byte[]>> globalRecords,
      List<ProducerRecord<String, byte[]>> nodeRecords, List<ProducerRecord<String, byte[]>> podRecords,
      int placed) {
    long meanBytes() {
      return Math.round(Stream.concat(nodeRecords.stream(), podRecords.stream())
          .mapToInt(r -> r.value().length).average().orElse(0));
    }
  }

  /** A synthetic scenario projected as ingest would: node snapshots, pod snapshots and removals. */
  private static Input input(int nodes, int pods) {
    SyntheticScenario.Options options = SyntheticScenario.Options.defaults(nodes, pods);
    Scenario scenario = SyntheticScenario.generate(options);
    Topics topics = Topics.defaults();
    List<ProducerRecord<String, byte[]>> globals = new ArrayList<>();
    List<ProducerRecord<String, byte[]>> nodeRecords = new ArrayList<>();
    List<ProducerRecord<String, byte[]>> podRecords = new ArrayList<>();
    Map<String, PodSnapshot> live = new HashMap<>();
    for (ScenarioEvent e : scenario.events()) {
      boolean deleted = e.type() == ScenarioEvent.Type.DELETED;
      if (e.object() instanceof Namespace ns) {
        globals.add(new ProducerRecord<>(topics.namespaces(), ns.getMetadata().getName(),
            JsonCodec.encode(NamespaceProjection.project(ns, List.of()))));
      } else if (e.object() instanceof GenericKubernetesResource g) {
        globals.add(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
            JsonCodec.encode(ConfigProjection.project(g))));
      } else if (e.object() instanceof Node n) {
        NodeSnapshot s = NodeProjection.project(n);
        nodeRecords.add(new ProducerRecord<>(topics.nodes(), s.node(), JsonCodec.encode(s)));
      } else if (e.object() instanceof Pod p) {
        String uid = p.getMetadata().getUid();
        if (deleted) {
          PodProjection.removed(p).ifPresent(r -> {
            if (live.remove(uid) != null) {
              podRecords.add(podRecord(topics, r));
            }
          });
          continue;
        }
        PodSnapshot s = PodProjection.project(p, false).orElse(null);
        if (s != null && !s.sameBooking(live.get(uid))) {
          podRecords.add(podRecord(topics, s));
          if (s.terminal()) {
            live.remove(uid);
          } else {
            live.put(uid, s);
          }
        }
      }
    }
    return new Input(globals, nodeRecords, podRecords, scenario.summary().placedPods());
  }

  private static ProducerRecord<String, byte[]> podRecord(Topics topics, NodeEvent e) {
    return new ProducerRecord<>(topics.pods(), e.node(), JsonCodec.encode(e));
  }

  /**
   * Globals once; node records once; pod records pass after pass until about {@code wanted}
   * node-keyed records (a pass ends with every pod removed, so passes simply repeat the history).
   * The same node-keyed records, same keys and bytes, go to the read-modify-write topic.
   */
  private static long produce(EmbeddedKafka kafka, Topics topics, Input input, long wanted) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    long count = 0;
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      input.globalRecords().forEach(producer::send);
      List<ProducerRecord<String, byte[]>> all = new ArrayList<>(input.nodeRecords());
      do {
        all.addAll(input.podRecords());
      } while (!input.podRecords().isEmpty() && all.size() < wanted);
      for (ProducerRecord<String, byte[]> r : all) {
        producer.send(r);
        producer.send(new ProducerRecord<>(RMW_TOPIC, r.key(), r.value()));
        count++;
      }
      producer.flush();
    }
    return count;
  }

  /** (a) A plain consumer reading every record of the read-modify-write topic. */
  private static double plainConsumer(EmbeddedKafka kafka, long records) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-plain-" + System.nanoTime());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = consumer.partitionsFor(RMW_TOPIC).stream()
          .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      long start = System.nanoTime();
      long n = 0;
      long bytes = 0;
      while (n < records) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
        for (var r : batch) {
          bytes += r.value().length; // touch every value
          n++;
        }
        if (System.nanoTime() - start > TIMEOUT.toNanos()) {
          throw new IllegalStateException("plain consumer read only " + n + " of " + records);
        }
      }
      return n * 1e9 / (System.nanoTime() - start) + (bytes < 0 ? 1 : 0);
    }
  }

  /** (b) exactly_once_v2, one cached key-value read-modify-write per record. */
  private static double readModifyWrite(EmbeddedKafka kafka, Path stateDir, String appId, long records)
      throws Exception {
    Topology topology = new Topology();
    topology.addSource("rmw-source", RMW_TOPIC);
    topology.addProcessor("rmw", ReadModifyWrite::new, "rmw-source");
    topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("rmw-store"),
        Serdes.String(), Serdes.ByteArray()).withCachingEnabled(), "rmw");
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 16L * 1024 * 1024); // as TopologyRunner
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    AtomicLong runningAt = new AtomicLong();
    KafkaStreams streams = new KafkaStreams(topology, p);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        runningAt.compareAndSet(0, System.nanoTime());
      }
    });
    try {
      streams.start();
      long done = awaitNoLag(kafka, appId, Set.of(RMW_TOPIC));
      return records * 1e9 / (done - runningAt.get());
    } finally {
      streams.close(Duration.ofSeconds(30));
    }
  }

  private static final class ReadModifyWrite implements Processor<String, byte[], Void, Void> {
    private KeyValueStore<String, byte[]> store;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
      store = context.getStateStore("rmw-store");
    }

    @Override
    public void process(Record<String, byte[]> record) {
      byte[] old = store.get(record.key());
      byte[] next = record.value().clone();
      if (old != null && old.length > 0 && next.length > 0) {
        next[0] ^= old[0]; // the new value depends on the old one
      }
      store.put(record.key(), next);
    }
  }

  /** (c) The Headroom topology under {@link TopologyRunner}, production settings. */
  private static double headroom(EmbeddedKafka kafka, Topics topics, Path stateDir, String appId)
      throws Exception {
    long records = endOffsets(kafka, List.of(topics.pods(), topics.nodes()));
    AtomicLong decisions = new AtomicLong();
    TopologyListener counting = new TopologyListener() {
      @Override
      public void decided(dev.kubeheadroom.schemas.NodeDecision decision) {
        decisions.incrementAndGet();
      }
    };
    TopologyRunner runner = TopologyRunner.start(
        new TopologyRunner.Options(appId, KafkaClientSettings.of(kafka.bootstrapServers()), stateDir),
        TopologySettings.defaults(topics), counting);
    try {
      if (!runner.awaitRunning(Duration.ofMinutes(2))) {
        throw new IllegalStateException("Headroom topology did not start: " + runner.state());
      }
      long start = System.nanoTime();
      long done = awaitNoLag(kafka, appId, Set.of(topics.pods(), topics.nodes()));
      System.out.printf("  (c) consumed %d records, %d decisions on the way%n", records, decisions.get());
      return records * 1e9 / (done - start);
    } finally {
      runner.close();
    }
  }

  private static long endOffsets(EmbeddedKafka kafka, List<String> topicNames) throws Exception {
    try (Admin admin = kafka.admin()) {
      Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
      admin.describeTopics(topicNames).allTopicNames().get().forEach((name, d) ->
          d.partitions().forEach(pi -> specs.put(new TopicPartition(name, pi.partition()), OffsetSpec.latest())));
      return admin.listOffsets(specs).all().get().values().stream().mapToLong(i -> i.offset()).sum();
    }
  }

  /** Polls the group's committed offsets until they reach the end of every input partition. */
  private static long awaitNoLag(EmbeddedKafka kafka, String group, Set<String> topicNames) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try (Admin admin = kafka.admin()) {
      Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
      admin.describeTopics(topicNames).allTopicNames().get().forEach((name, d) ->
          d.partitions().forEach(pi -> specs.put(new TopicPartition(name, pi.partition()), OffsetSpec.latest())));
      Map<TopicPartition, Long> end = new HashMap<>();
      admin.listOffsets(specs).all().get().forEach((tp, info) -> end.put(tp, info.offset()));
      while (System.nanoTime() < deadline) {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        boolean caughtUp = true;
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
          OffsetAndMetadata c = committed.get(e.getKey());
          if (e.getValue() > 0 && (c == null || c.offset() < e.getValue())) {
            caughtUp = false;
            break;
          }
        }
        if (caughtUp) {
          return System.nanoTime();
        }
        Thread.sleep(20); // polling the broker: no event to wait on
      }
    }
    throw new IllegalStateException(group + " did not catch up within " + TIMEOUT);
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(Comparator.naturalOrder());
    return s.get(s.size() / 2);
  }

  private static double min(List<Double> xs) {
    return xs.stream().mapToDouble(d -> d).min().orElse(0);
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(d -> d).max().orElse(0);
  }
}
