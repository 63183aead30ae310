package dev.kubeheadroom.demo;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code headroom demo}: the live pipeline — embedded Kafka, ingest, topology, actuator, real HTTP
 * calls — against the simulated API server and kubelet, driven by a scenario. Time knobs and the
 * scenario's clock are divided by {@code speed}, so a sped-up run makes the same decisions.
 */
public final class DemoRun implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DemoRun.class);
  /** Node-keyed partitions of the demo's topics. */
  static final int PARTITIONS = 3;

  /**
   * @param workDir Kafka data and Streams state (fresh per run)
   * @param speed divides every time in the scenario and every pipeline time knob
   * @param startupTimeout how long the pipeline may take to come up
   */
  public record Options(Path workDir, double speed, Duration startupTimeout) {
    public Options {
      if (!(speed > 0)) {
        throw new IllegalArgumentException("--speed must be > 0, got " + speed);
      }
    }
  }

  /** The end state (simulate form) and what the run did. */
  public record Result(ClusterReport report, DemoSummary summary) {}

  private final Options options;
  private final Clock clock = Clock.systemUTC();
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final Topics topics = Topics.defaults();
  private final AtomicLong decisions = new AtomicLong();
  private ApiServerDouble api;
  private Instant started;
  private volatile Instant scenarioStarted;

  public DemoRun(Options options) {
    this.options = options;
  }

  /** When the scenario's first event was played (null before): the origin of demo times. */
  public Instant scenarioStarted() {
    return scenarioStarted;
  }

  /** The config every stage sees: enforcing (a demo applies), time divided by the speed. */
  UnaryOperator<ClusterConfig> configView() {
    double k = options.speed();
    return c -> c.withDryRun(false).speedUp(k);
  }

  /**
   * Starts the pipeline, plays {@code events}, waits until the pipeline is quiet, and reports.
   * {@code onChange} sees every limit change as it happens; {@code progress} gets status lines.
   */
  public Result run(List<WatchEvent> events, Consumer<LimitChange> onChange, Consumer<String> progress)
      throws InterruptedException {
    started = clock.instant();
    startPipeline(progress);
    ScenarioPlayer player = new ScenarioPlayer(api.seedClient(), clock, options.speed());
    LimitWatcher watcher = own(new LimitWatcher(api.client(), clock, player.writtenVersions(), onChange));
    progress.accept(String.format("pipeline up in %.1f s; playing %d events at speed %s",
        Duration.between(started, clock.instant()).toMillis() / 1000.0, events.size(), options.speed()));
    scenarioStarted = clock.instant();
    player.play(events);
    if (player.failed() > 0) {
      progress.accept(player.failed() + " scenario events were refused by the API server; the first: "
          + player.firstFailure());
    }
    awaitQuiet(watcher);
    return new Result(FinalState.report(api, events.size(), decisions.get(), watcher),
        summary(player, watcher));
  }

  private void startPipeline(Consumer<String> progress) throws InterruptedException {
    CompletableFuture<EmbeddedKafka> kafka = CompletableFuture.supplyAsync(
        () -> EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(options.workDir().resolve("kafka"))));
    api = own(ApiServerDouble.start());
    own(KubeletDouble.start(api));
    EmbeddedKafka broker = own(kafka.join());
    try (Admin admin = broker.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(PARTITIONS), options.startupTimeout());
    }
    Duration tick = Duration.ofNanos(Math.max(Duration.ofMillis(10).toNanos(),
        Math.round(TopologySettings.DEFAULT_TICK.toNanos() / options.speed())));
    TopologyListener counter = new TopologyListener() {
      @Override
      public void decided(dev.kubeheadroom.schemas.NodeDecision decision) {
        decisions.incrementAndGet();
      }
    };
    KafkaClientSettings client = KafkaClientSettings.of(broker.bootstrapServers());
    Pipeline pipeline = own(Pipeline.start(StageContext.inMemory(), List.of(
        new TopologySpec(new TopologyRunner.Options("headroom-demo", client.with(Map.of("commit.interval.ms", "50")),
            options.workDir().resolve("state")), new TopologySettings(topics, tick, configView()), counter),
        new IngestSpec(IngestSettings.defaults(client, "headroom-demo").with(b -> b.topics = topics), api.newClient()),
        new ActuatorSpec(ActuatorSettings.defaults(client, topics).with(b -> {
          b.instance = "headroom-demo";
          b.configView = configView();
        }), api.config()))));
    pipeline.awaitReady(options.startupTimeout());
  }

  /** Quiet: no limit change for (debounce + max delay) / speed + 2 s, and nothing pending. */
  private void awaitQuiet(LimitWatcher watcher) throws InterruptedException {
    ClusterConfig config = configView().apply(ClusterConfig.DEFAULTS);
    Duration quiet = config.debouncePeriod().plus(config.maxDebounceDelay()).plus(Duration.ofSeconds(2));
    Instant lastPlayed = clock.instant();
    while (true) {
      Instant last = watcher.lastChange();
      Instant since = last == null || last.isBefore(lastPlayed) ? lastPlayed : last;
      if (Duration.between(since, clock.instant()).compareTo(quiet) >= 0) {
        return;
      }
      Thread.sleep(100); // waiting for the absence of events has no event to wait on
    }
  }

  private DemoSummary summary(ScenarioPlayer player, LimitWatcher watcher) {
    List<LimitChange> changes = watcher.changes();
    long resizeCalls = api.requests().count(r -> isHeadroomResize(r), 200);
    long writes = api.requests().count(DemoRun::isWrite);
    List<Duration> latencies = new ArrayList<>();
    Map<String, Instant> firsts = watcher.firstChanges();
    player.bindTimes().forEach((uid, bound) -> {
      Instant first = firsts.get(uid);
      if (first != null && !first.isBefore(bound)) {
        latencies.add(Duration.between(bound, first));
      }
    });
    return new DemoSummary(player.bindTimes().size(), decisions.get(), resizeCalls, changes.size(), writes,
        latencies, Duration.between(started, clock.instant()));
  }

  private static boolean isHeadroomResize(ApiRequest r) {
    return "resize".equals(r.subresource()) && "PATCH".equals(r.verb().name());
  }

  /**
   * Headroom's writes for its work: resizes, annotation patches and events. The journal names
   * verbs as Kubernetes does (POST is CREATE, PUT is UPDATE). The ingest Lease's renewals are a
   * fixed cost per second, not per scheduling event, so they are left out.
   */
  static boolean isWrite(ApiRequest r) {
    boolean write = switch (r.verb()) {
      case CREATE, UPDATE, PATCH -> true;
      default -> false;
    };
    return write && !r.resource().equals("leases");
  }

  private <T extends AutoCloseable> T own(T resource) {
    resources.push(resource);
    return resource;
  }

  @Override
  public void close() {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        LOG.warn("closing the demo: {}", e.toString());
      }
    }
  }
}
