package dev.kubeheadroom.bench;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.replay.NodeLookback;
import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What reading a pod's last decision back from before a checkpoint costs ({@link
 * NodeLookback}): a decisions topic shaped like a 5,000-node cluster's (six
 * partitions, each node deciding every {@code minutes} on average, every record a real decision
 * of a 30-pod node from a replay of {@link AuditBench}'s history, renamed), then look-backs at a
 * cut in the middle and near the end: for a pod of the node's last decisions (found), and for a
 * uid no decision holds (the whole partition read back, in windows doubling from 256 records).
 *
 * <pre>
 * java -Xmx3g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.DecisionLookbackBench [nodes] [hours] [minutes]
 * #   defaults: 5000 24 50
 * </pre>
 */
public final class DecisionLookbackBench {
  private DecisionLookbackBench() {}

  public static void main(String[] args) throws Exception {
    Args.quietLogs();
    EmbeddedKafka.quietLogs();
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    Duration span = Duration.ofHours(args.length > 1 ? Long.parseLong(args[1]) : 24);
    Duration every = Duration.ofMinutes(args.length > 2 ? Long.parseLong(args[2]) : 50);
    NodeDecision template = template();
    String uid = template.changes().get(0).uid();
    System.out.printf(Locale.ROOT, "template decision: %d inputs, %d changes, %,d bytes%n", template.inputs().size(),
        template.changes().size(), JsonCodec.encode(template).length);
    Path dataDir = Files.createTempDirectory("headroom-lookback-bench-");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir))) {
      Topics topics = Topics.defaults();
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(6), Duration.ofSeconds(60));
      }
      Instant start = Instant.now().minus(span).truncatedTo(ChronoUnit.SECONDS);
      long count = nodes * (span.toMillis() / every.toMillis());
      long t = System.nanoTime();
      produce(kafka.bootstrapServers(), topics, template, nodes, start, span, count);
      System.out.printf(Locale.ROOT, "%,d decisions over %,d nodes and %s produced in %.1f s; load average %s%n",
          count, nodes, span, (System.nanoTime() - t) / 1e9, CheckpointAuditBench.loadAverage());
      Random random = new Random(7);
      for (Instant cut : List.of(start.plus(span.dividedBy(2)), start.plus(span).minus(Duration.ofMinutes(1)))) {
        for (int i = 0; i < 4; i++) {
          String node = node(random.nextInt(nodes));
          lookBack(kafka.bootstrapServers(), topics, node, uid, cut, "found", NodeLookback.consumerSettings());
          lookBack(kafka.bootstrapServers(), topics, node, "no-such-uid", cut, "none",
              NodeLookback.consumerSettings());
          // the client's default fetch.max.wait.ms (500 ms): what the setting saves near the log's end
          lookBack(kafka.bootstrapServers(), topics, node, "no-such-uid", cut, "none, default wait", Map.of());
        }
      }
    } finally {
      TempDirs.deleteQuietly(dataDir);
    }
  }

  /** The largest decision a replay of a 30-node slice of AuditBench's history takes. */
  private static NodeDecision template() {
    Topics topics = Topics.defaults();
    Instant start = Instant.parse("2026-03-01T00:00:00Z");
    List<NodeDecision> decided = new ArrayList<>();
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, start)) {
      AuditBench.history((topic, key, value, at) -> {
        engine.pipeRaw(topic, key, JsonCodec.encode(value), at);
        decided.addAll(engine.drainDecisions());
      }, topics, 3_000, 30, start, Duration.ofHours(2));
    }
    return decided.stream().max(Comparator.comparingInt(d -> d.inputs().size() * 100 + d.changes().size()))
        .orElseThrow();
  }

  private static String node(int n) {
    return String.format(Locale.ROOT, "node-%05d", n);
  }

  private static void produce(String bootstrap, Topics topics, NodeDecision template, int nodes, Instant start,
      Duration span, long count) {
    Map<String, Object> config = AuditBench.bulkProducer(bootstrap);
    Random random = new Random(42);
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < count; i++) {
        Instant at = start.plusMillis(span.toMillis() * i / count);
        String node = node(random.nextInt(nodes));
        NodeDecision d = new NodeDecision(node, at, template.configGeneration(), template.policy(), template.dryRun(),
            template.config(), template.stats(), template.inputs(), template.changes(), template.part(),
            template.pool());
        producer.send(new ProducerRecord<>(topics.decisions(), null, at.toEpochMilli(), node,
            HeadroomSerdes.decisions().serializer().serialize(topics.decisions(), d)));
      }
      producer.flush();
    }
  }

  private static void lookBack(String bootstrap, Topics topics, String node, String uid, Instant cut, String what,
      Map<String, Object> settings) {
    long cpu = ProcessCpu.nanos(); // the broker runs in this JVM: its CPU counts too
    long t = System.nanoTime();
    NodeLookback.Found<NodeDecision> found;
    try (var consumer = AuditBench.consumer(bootstrap, settings)) {
      found = new NodeLookback(consumer, Duration.ofSeconds(60)).decisions(topics.decisions(), node, Set.of(uid),
          new NodeLookback.Start(cut, Map.of()));
    }
    System.out.printf(Locale.ROOT, "  look-back (%s) %s before %s: %.3f s, %.3f CPU-s; %,d records in %d windows,"
            + " %s; load average %s%n", what, node, cut, (System.nanoTime() - t) / 1e9,
        (ProcessCpu.nanos() - cpu) / 1e9, found.records(), found.windows(),
        found.byPod().isEmpty() ? "none found" : "found the decision at " + found.byPod().values().iterator().next().at(),
        CheckpointAuditBench.loadAverage());
  }
}
