package dev.kubeheadroom.bench;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.ops.AccessReviews;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.OpsConfig;
import dev.kubeheadroom.ops.OpsServer;
import dev.kubeheadroom.ops.PodSeries;
import dev.kubeheadroom.ops.Readiness;
import dev.kubeheadroom.ops.TokenAuthorizer;
import dev.kubeheadroom.ops.TrustingEveryone;
import dev.kubeheadroom.pipeline.Stage;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.LiveBooking;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code explain --live} at the design point: an embedded broker, N topology instances in this JVM
 * as the chart runs them (each advertising its HTTPS bookings endpoint, bearer tokens reviewed by a
 * stand-in that allows one token, cached as in production), the bookings of {@code nodes} nodes of
 * {@code pods-per-node} pods each; then {@code requests} lookups of a random pod, each sent to the
 * next instance in turn (as a Service spreads them), timed from the request to the explanation
 * built from the answer ({@link Explanation#of}, what the CLI prints): p50 / p99 / max, overall and
 * for the answers another instance gave (forwarded). The CLI's own start-up is not in it.
 *
 * <pre>
 * java -Xmx3g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.LiveExplainBench \
 *     --nodes 5000 --pods-per-node 30 --instances 2 --standbys 0 --requests 2000
 * </pre>
 */
public final class LiveExplainBench {
  private static final String TOKEN = "bench-reader";

  private LiveExplainBench() {}

  public static void main(String[] argv) throws Exception {
    Args.quietLogs();
    EmbeddedKafka.quietLogs();
    Map<String, String> args = Args.parse(argv);
    int nodes = Args.integer(args, "nodes", 5000);
    int perNode = Args.integer(args, "pods-per-node", 30);
    int instances = Args.integer(args, "instances", 2);
    int standbys = Args.integer(args, "standbys", 0);
    int requests = Args.integer(args, "requests", 2000);
    Path dir = Files.createTempDirectory("headroom-live-explain-bench-");
    List<Stage> stages = new ArrayList<>();
    List<OpsServer> servers = new ArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dir.resolve("kafka")));
        AutoCloseable instancesFirst = () -> { // before the broker: a topology leaving the group needs it
          stages.forEach(Stage::close);
          servers.forEach(OpsServer::close);
        }) {
      Topics topics = Topics.defaults();
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(6), Duration.ofSeconds(60));
      }
      System.out.printf(Locale.ROOT, "%,d nodes x %d pods, %d instances, %d standbys; load average %s%n",
          nodes, perNode, instances, standbys, CheckpointAuditBench.loadAverage());
      long t = System.nanoTime();
      produce(kafka.bootstrapServers(), topics, nodes, perNode);
      System.out.printf(Locale.ROOT, "  produced in %.1f s%n", seconds(System.nanoTime() - t));
      List<String> urls = new ArrayList<>();
      for (int i = 0; i < instances; i++) {
        PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
        OpsServer ops = OpsServer.start(OpsConfig.defaults().withPorts(0, 0).withMetricsSecure(true), registry,
            new Readiness(), Clock.systemUTC(), Optional.of(new TokenAuthorizer(oneToken())));
        servers.add(ops);
        String host = "127.0.0.1:" + ops.metricsPort();
        urls.add("https://" + host);
        TopologyRunner.Options options = new TopologyRunner.Options(TopologyRunner.Options.DEFAULT_APPLICATION_ID,
            KafkaClientSettings.of(kafka.bootstrapServers()), dir.resolve("state-" + i), standbys, "",
            FailoverTimeouts.DEFAULTS, host);
        stages.add(new TopologySpec(options, TopologySettings.defaults(topics)).start(
            new StageContext(registry, new HeadroomMetrics(registry, PodSeries.upTo(0)), Clock.systemUTC(), ops::route)));
      }
      HttpClient http = HttpClient.newBuilder().sslContext(TrustingEveryone.context()).build();
      t = System.nanoTime();
      Random random = new Random(42);
      // every instance answers for the last pod of each of 50 nodes: the bookings are in
      for (int i = 0; i < 50; i++) {
        int node = random.nextInt(nodes);
        while (ask(http, urls.get(i % instances), node, perNode - 1).status() != 200) {
          Thread.sleep(500);
        }
      }
      System.out.printf(Locale.ROOT, "  bookings queryable after %.1f s; settling 30 s (the first decisions); load %s%n",
          seconds(System.nanoTime() - t), CheckpointAuditBench.loadAverage());
      Thread.sleep(30_000);
      measure(http, urls, nodes, perNode, requests, random);
    } finally {
      TempDirs.deleteQuietly(dir);
    }
  }

  private static void measure(HttpClient http, List<String> urls, int nodes, int perNode, int requests, Random random)
      throws Exception {
    for (int warm = 0; warm < 200; warm++) {
      ask(http, urls.get(warm % urls.size()), random.nextInt(nodes), random.nextInt(perNode));
    }
    long[] all = new long[requests];
    List<Long> forwarded = new ArrayList<>();
    int failed = 0;
    long cpu = ProcessCpu.nanos();
    long wall = System.nanoTime();
    for (int i = 0; i < requests; i++) {
      String url = urls.get(i % urls.size());
      long started = System.nanoTime();
      Asked asked = ask(http, url, random.nextInt(nodes), random.nextInt(perNode));
      if (asked.status() != 200) {
        failed++;
        continue;
      }
      LiveBooking live = JsonCodec.decode(asked.body(), LiveBooking.class);
      Explanation.of(live.booking(), live.uid(), live.config(), live.namespaces()::get, Instant.now(),
          Optional.empty(), Optional.empty());
      all[i] = System.nanoTime() - started;
      if (!url.endsWith(live.servedBy())) {
        forwarded.add(all[i]);
      }
    }
    double cpuSeconds = seconds(ProcessCpu.nanos() - cpu);
    double wallSeconds = seconds(System.nanoTime() - wall);
    long[] answered = Arrays.stream(all).filter(n -> n > 0).sorted().toArray();
    long[] hops = forwarded.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(Locale.ROOT, "  %,d requests (%,d failed) in %.1f s, %.1f CPU-s (the broker and the topology included);"
        + " load average %s%n", requests, failed, wallSeconds, cpuSeconds, CheckpointAuditBench.loadAverage());
    System.out.printf(Locale.ROOT, "  all:       p50 %s  p90 %s  p99 %s  max %s%n", ms(answered, 0.50),
        ms(answered, 0.90), ms(answered, 0.99), ms(answered, 1.0));
    System.out.printf(Locale.ROOT, "  forwarded (%,d): p50 %s  p90 %s  p99 %s  max %s%n", hops.length, ms(hops, 0.50),
        ms(hops, 0.90), ms(hops, 0.99), ms(hops, 1.0));
  }

  private record Asked(int status, byte[] body) {}

  private static Asked ask(HttpClient http, String url, int node, int pod) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/bookings?namespace=team-a&name=" + podName(node, pod)))
        .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new Asked(response.statusCode(), response.body());
  }

  private static String podName(int node, int pod) {
    return "web-" + node + "-" + pod;
  }

  /** The config, one managed namespace, each node's snapshot and its pods (keyed by node, as ingest). */
  private static void produce(String bootstrap, Topics topics, int nodes, int perNode) {
    Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(
          new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      for (int n = 0; n < nodes; n++) {
        String node = "node-" + n;
        p.send(new ProducerRecord<>(topics.nodes(), node,
            JsonCodec.encode(new NodeSnapshot(node, 32_000, "linux", false, Map.of()))));
        for (int i = 0; i < perNode; i++) {
          String name = podName(n, i);
          PodSnapshot pod = new PodSnapshot("uid-" + name, "team-a", name, node, "Running", "Burstable", "1", 1,
              null, 0, null, false, List.of(),
              List.of(new ContainerSnapshot("app", ContainerKind.APP, 500 + 10L * i, 0, false, false)), ResizeStatus.NONE);
          p.send(new ProducerRecord<>(topics.pods(), node, JsonCodec.encode(pod)));
        }
      }
      p.flush();
    }
  }

  private static AccessReviews oneToken() {
    return new AccessReviews() {
      @Override
      public Optional<Subject> authenticate(String token) {
        return token.equals(TOKEN) ? Optional.of(new Subject("bench", "uid-bench", List.of(), Map.of())) : Optional.empty();
      }

      @Override
      public boolean mayGet(Subject subject, String path) {
        return true;
      }
    };
  }

  private static String ms(long[] sorted, double quantile) {
    if (sorted.length == 0) {
      return "-";
    }
    int index = Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1);
    return String.format(Locale.ROOT, "%.1f ms", sorted[Math.max(0, index)] / 1e6);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
