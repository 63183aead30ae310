package dev.kubeheadroom.bench;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.RestartPolicy;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The design point through the live stack (a harness {@code main}, not a timed
 * test): a cluster of {@code --nodes} nodes × {@code --pods-per-node} pods ({@link DesignPointCluster})
 * created in the API double, then the stages as {@code headroom run} wires them, in this JVM: an
 * embedded broker, two topology instances of one application id ({@link TopologyInstances}),
 * the actuator, and ingest last (a restart of Headroom on a running cluster). It prints:
 *
 * <ol>
 *   <li>ingest's initial sync (paged LIST): time to informers synced and to the leader's first full
 *       re-publish, the pod LIST requests, process CPU, and the JVM heap (whole JVM: the double's
 *       store and the broker are in it too, so the live heap before ingest starts is printed);
 *   <li>the time until every node has been evaluated once by the topology, and what that cost
 *       in decisions and resizes;
 *   <li>the initial sync's resizes until none for {@code --quiet-s}, per pod ({@link ResizeLog});
 *   <li>the HeadroomConfig's {@code maxMultiplier} 10 → 4: the time until every managed pod is at
 *       its new limit ({@link PolicyCheck}), the resizes, the API write rate, the refusals;
 *   <li>for each {@code --failover} mode and {@code --failover-standbys} value: two fresh instances
 *       with that many standby replicas, pods created at {@code --churn} per second on random
 *       nodes, one instance lost ({@link Failover.Mode}: SIGKILLed in its own JVM, crashed or
 *       stopped in this one), and per partition it owned, the time until the survivor evaluates
 *       one of its nodes and until a decision for one is visible to a read_committed reader.
 * </ol>
 *
 * <pre>
 * java -Xmx8g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.DesignPointBench \
 *     --nodes 5000 --pods-per-node 30 --trace ../shared/traces/alibaba-openb
 * </pre>
 *
 * Other options: {@code --partitions} (12), {@code --request-scale} (0.1), {@code --seed-threads}
 * (4), {@code --churn} (5), {@code --failover} (a comma list of {@code kill}: each instance a child
 * JVM, the victim SIGKILLed; {@code crash}: in-JVM close without leaving; {@code stop}: a clean
 * leave; default {@code crash}), {@code --kill-at} ({@code open}: the
 * victim is SIGSTOPped until one stop finds it inside an open transaction on its partitions, then
 * SIGKILLed, the worst case; {@code any}: killed at once), {@code --child-xmx} (1g), {@code --child-logs} (the children's
 * stderr), {@code --transaction-timeout-ms} (the topology's default when absent), {@code
 * --broker-transaction-sweep-ms} (the broker's {@code
 * transaction.abort.timed.out.transaction.cleanup.interval.ms}; Kafka's 10 s when absent), {@code
 * --failover-standbys} ({@code 0,1}; {@code none} skips), {@code --session-timeout-ms} (the
 * topology's default when absent), {@code --initial-quiet-timeout-s} (600: the longest wait for the
 * initial sync's resizes to stop, {@code --quiet-s} 20 without one, before the config change),
 * {@code --config-timeout-s} (1800: the config change ends earlier when every managed pod is at
 * its new limit), {@code --stall-s} (300: or when no resize has come this long), {@code
 * --skip-config} (skips phase 4 only: the initial sync's resizes are still counted), {@code --warm-s}
 * (30: churn before the kill).
 */
public final class DesignPointBench {
  private DesignPointBench() {}

  public static void main(String[] argv) throws Exception {
    run(argv);
  }

  /** Runs the phases {@code argv} asks for; returns the printed lines. */
  static List<String> run(String[] argv) throws Exception {
    Args.quietLogs();
    for (String noisy : new String[] {"org.apache.kafka", "kafka", "io.fabric8"}) { // EOS start-up retries, mostly
      System.setProperty("org.slf4j.simpleLogger.log." + noisy, System.getProperty("org.slf4j.simpleLogger.log." + noisy, "error"));
    }
    Map<String, String> a = Args.parse(argv);
    int nodes = Integer.parseInt(a.getOrDefault("nodes", "5000"));
    int podsPerNode = Integer.parseInt(a.getOrDefault("pods-per-node", "30"));
    int partitions = Integer.parseInt(a.getOrDefault("partitions", "12"));
    Path trace = a.containsKey("trace") ? Path.of(a.get("trace")) : null;
    Report out = new Report();
    out.line("design point: %d nodes x %d pods, %d partitions, load %s", nodes, podsPerNode, partitions, Report.load());

    DesignPointCluster cluster = new DesignPointCluster(nodes, podsPerNode,
        Double.parseDouble(a.getOrDefault("request-scale", "0.1")), trace, 42);
    long booked = cluster.pods.stream().mapToLong(DesignPointCluster.SeededPod::requestMilli).sum();
    long capacity = cluster.allocatable.values().stream().mapToLong(Long::longValue).sum();
    out.line("cluster: %d pods, %d managed, %.1f%% of CPU booked, %d managed pods above 4 x request (%d beyond the deadband)",
        cluster.pods.size(), cluster.managedPods(), 100.0 * booked / capacity, cluster.above(4),
        cluster.above(4 / (1 - ConfigChange.SHRINK_DEADBAND)));

    Path work = Files.createTempDirectory("design-point");
    FailoverTimeouts timeouts = new FailoverTimeouts(
        millis(a, "session-timeout-ms", FailoverTimeouts.DEFAULT_SESSION_TIMEOUT),
        millis(a, "transaction-timeout-ms", FailoverTimeouts.DEFAULT_TRANSACTION_TIMEOUT));
    List<Failover.Mode> modes = Arrays.stream(a.getOrDefault("failover", "crash").split(",")).map(Failover.Mode::of).toList();
    try (ApiServerDouble api = ApiServerDouble.start(); KubeletDouble kubelet = KubeletDouble.start(api);
        EmbeddedKafka broker = EmbeddedKafka.start(brokerConfig(work.resolve("kafka"), a))) {
      out.phase();
      cluster.create(api, Integer.parseInt(a.getOrDefault("seed-threads", "4")));
      out.line("seeded in %s (double revision %d, kubelet writes %d)", out.phase(), api.revision(), kubelet.statusWrites());
      Topics topics = Topics.defaults();
      try (Admin admin = broker.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(partitions), Duration.ofMinutes(2));
      }
      KafkaClientSettings client = KafkaClientSettings.of(broker.bootstrapServers());
      List<Integer> rounds = a.getOrDefault("failover-standbys", "0,1").equals("none") ? List.of()
          : java.util.Arrays.stream(a.getOrDefault("failover-standbys", "0,1").split(",")).map(Integer::valueOf).toList();
      int firstStandbys = rounds.isEmpty() ? 0 : rounds.get(0);
      out.line("topology: session timeout %d ms, transaction timeout %d ms; failover modes %s",
          timeouts.sessionTimeout().toMillis(), timeouts.transactionTimeout().toMillis(), modes);
      try (TopologyInstances topology = new TopologyInstances(client, topics, work.resolve("state"), "headroom-topology",
          timeouts, partitions, a.getOrDefault("child-xmx", "1g"))) {
        topology.start("a0", firstStandbys);
        topology.start("b0", firstStandbys);
        topology.awaitRunning(Duration.ofMinutes(2));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SimpleMeterRegistry actuatorMetrics = new SimpleMeterRegistry();
        try (Pipeline actuator = Pipeline.start(StageContext.of(actuatorMetrics), List.of(new ActuatorSpec(
            ActuatorSettings.defaults(client, topics).with(b -> b.instance = "bench"), api.config())))) {
          actuator.awaitReady(Duration.ofMinutes(2));
          long live = HeapPeak.liveNow();
          out.line("stages up: topology x2, actuator; live heap before ingest %d MB", live >> 20);
          InitialSync sync = new InitialSync(api, topology, cluster, out);
          java.time.Instant syncStart = java.time.Instant.now();
          try (Pipeline ingest = sync.start(client, topics, registry); AutoCloseable restarts = supervise(ingest, out)) {
            sync.measure(registry, nodes);
            ConfigChange change = new ConfigChange(api, cluster, seconds(a, "quiet-s", 20), seconds(a, "stall-s", 300),
                actuatorMetrics, out);
            change.awaitInitialSync(syncStart, seconds(a, "initial-quiet-timeout-s", 600)); // phase 3: a run's resizes count
            if (!a.containsKey("skip-config")) {
              change.run(seconds(a, "config-timeout-s", 1800));
            }
            Path logs = Files.createDirectories(Path.of(a.getOrDefault("child-logs", work.resolve("logs").toString())));
            Failover failover = new Failover(api, cluster, topology, client, topics, partitions,
                Duration.ofSeconds(Long.parseLong(a.getOrDefault("warm-s", "30"))), logs,
                !"any".equals(a.getOrDefault("kill-at", "open")), out);
            int round = 0;
            for (Failover.Mode mode : modes) {
              for (int standbys : rounds) {
                failover.round(round++, standbys, Double.parseDouble(a.getOrDefault("churn", "5")), mode);
              }
            }
          }
        }
      }
    } finally {
      out.line("done, load %s", Report.load());
      TempDirs.deleteQuietly(work);
    }
    return out.lines();
  }

  /**
   * Restarts a stage that stopped, as the kubelet restarts its container (or {@code headroom run}
   * its stage), and says so: ingest stops when it loses its Lease, e.g. while the API server
   * stalls past the renew deadline, and a run without a restart would measure a pipeline with no
   * publisher (a design-point run of 2026-11 saw no resize after the config change).
   */
  private static AutoCloseable supervise(Pipeline pipeline, Report out) {
    Thread thread = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          pipeline.failure().ifPresent(f -> out.line("stage %s stopped (%s); restarting it", f.stage(), f.cause().getMessage()));
          pipeline.supervise().ifPresent(f -> out.line("stage %s gave up: %s", f.stage(), f.cause().getMessage()));
          Thread.sleep(1_000);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "bench-supervisor");
    thread.setDaemon(true);
    thread.start();
    return thread::interrupt;
  }

  /** The embedded broker, at Kafka's defaults unless {@code --broker-transaction-sweep-ms} is given. */
  private static EmbeddedKafkaConfig brokerConfig(Path dir, Map<String, String> a) {
    EmbeddedKafkaConfig config = EmbeddedKafkaConfig.ephemeral(dir);
    return a.containsKey("broker-transaction-sweep-ms")
        ? config.withBrokerProperty("transaction.abort.timed.out.transaction.cleanup.interval.ms",
            a.get("broker-transaction-sweep-ms"))
        : config;
  }

  private static Duration millis(Map<String, String> a, String option, Duration otherwise) {
    return a.containsKey(option) ? Duration.ofMillis(Long.parseLong(a.get(option))) : otherwise;
  }

  private static Duration seconds(Map<String, String> a, String option, long otherwise) {
    return Duration.ofSeconds(Long.parseLong(a.getOrDefault(option, String.valueOf(otherwise))));
  }

  /** Whether {@code r} is a write Headroom makes for its work (not the ingest Lease's renewals). */
  static boolean isWrite(ApiRequest r) {
    return switch (r.verb()) {
      case CREATE, UPDATE, PATCH -> !r.resource().equals("leases");
      default -> false;
    };
  }

  static boolean isResize(ApiRequest r) {
    return RequestMatcher.resize().test(r);
  }

  /** Printed lines, each with the seconds since the start, and phase timing (wall and process CPU). */
  static final class Report {
    private final long started = System.nanoTime();
    private long phaseWall = System.nanoTime();
    private long phaseCpu = cpu();
    private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();

    void line(String format, Object... args) {
      String line = String.format(Locale.ROOT, format, args);
      lines.add(line);
      System.out.printf(Locale.ROOT, "[%7.1f s] %s%n", (System.nanoTime() - started) / 1e9, line);
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    /** Wall and CPU time since the last call, and starts the next phase. */
    String phase() {
      long wall = System.nanoTime() - phaseWall;
      long cpu = cpu() - phaseCpu;
      phaseWall = System.nanoTime();
      phaseCpu = cpu();
      return String.format(Locale.ROOT, "%.1f s wall, %.1f s process CPU", wall / 1e9, cpu / 1e9);
    }

    static long cpu() {
      return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
          .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static String load() {
      try {
        return Files.readString(Path.of("/proc/loadavg")).trim();
      } catch (java.io.IOException e) {
        return "?";
      }
    }
  }

  /** Phase 1–2: ingest's initial sync, then every node evaluated once. */
  private record InitialSync(ApiServerDouble api, TopologyInstances topology, DesignPointCluster cluster, Report out) {
    Pipeline start(KafkaClientSettings client, Topics topics, SimpleMeterRegistry registry) {
      out.phase();
      return Pipeline.start(StageContext.of(registry), RestartPolicy.IN_PROCESS, List.of(new IngestSpec(
          IngestSettings.defaults(client, "bench").with(b -> b.topics = topics), api.newClient())));
    }

    void measure(SimpleMeterRegistry registry, int nodes) throws InterruptedException {
      long t0 = System.nanoTime();
      long resizesBefore = api.requests().count(DesignPointBench::isResize);
      try (HeapPeak heap = new HeapPeak()) {
        while (registry.find("headroom.ingest.resyncs").tags("reason", "leader").counter() == null
            || registry.find("headroom.ingest.resyncs").tags("reason", "leader").counter().count() < 1) {
          Thread.sleep(50);
        }
        long pages = api.requests().count(r -> r.verb() == ApiRequest.Verb.LIST && r.resource().equals("pods"));
        out.line("ingest: first full re-publish done after %.1f s (%s); %d pod LIST pages; %s",
            (System.nanoTime() - t0) / 1e9, out.phase(), pages, heap.peak().describe());
        while (topology.firstEvaluated.size() < nodes) {
          Thread.sleep(100);
        }
        out.line("every node evaluated once %.1f s after ingest started (%s); %d evaluations, %d decisions, %d resizes; %s",
            (System.nanoTime() - t0) / 1e9, out.phase(), topology.evaluations.get(), topology.decisions.get(),
            api.requests().count(DesignPointBench::isResize) - resizesBefore, heap.peak().describe());
      }
    }
  }
}
