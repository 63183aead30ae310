package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.AccessReviews;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.OpsConfig;
import dev.kubeheadroom.ops.OpsServer;
import dev.kubeheadroom.ops.PodSeries;
import dev.kubeheadroom.ops.Readiness;
import dev.kubeheadroom.ops.TokenAuthorizer;
import dev.kubeheadroom.pipeline.Stage;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Topology instances of one application as the chart runs them: each a {@link TopologySpec} stage
 * whose {@code /bookings} is on its own ops server (HTTPS, self-signed, bearer tokens reviewed),
 * advertising {@code 127.0.0.1:<its metrics port>} as its application server. Only the token
 * {@link #TOKEN} may read bookings, so a forwarded request that dropped it is refused.
 */
final class BookingInstances implements AutoCloseable {
  static final String TOKEN = "bookings-reader";

  /** One instance: its stage and its ops server, each closable on its own. */
  record Instance(String host, Stage stage, OpsServer ops) {
    String url() {
      return "https://" + host;
    }
  }

  private final List<Instance> instances = new ArrayList<>();
  private final java.util.Set<String> closed = new java.util.HashSet<>();

  BookingInstances(String bootstrap, Topics topics, Path stateRoot, int count, int standbys) throws IOException {
    String applicationId = topics.topologyApplicationId();
    for (int i = 0; i < count; i++) {
      PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
      OpsServer ops = OpsServer.start(OpsConfig.defaults().withPorts(0, 0).withMetricsSecure(true), registry,
          new Readiness(), Clock.systemUTC(), Optional.of(new TokenAuthorizer(onlyTheReader())));
      String host = "127.0.0.1:" + ops.metricsPort();
      TopologyRunner.Options options = new TopologyRunner.Options(applicationId,
          new KafkaClientSettings(bootstrap, Map.of("commit.interval.ms", "100")), stateRoot.resolve("i" + i),
          standbys, "", new FailoverTimeouts(Duration.ofSeconds(6), Duration.ofSeconds(5)), host);
      Stage stage = new TopologySpec(options, TopologySettings.defaults(topics))
          .start(new StageContext(registry, new HeadroomMetrics(registry, PodSeries.upTo(0)), Clock.systemUTC(), ops::route));
      instances.add(new Instance(host, stage, ops));
    }
  }

  Instance get(int i) {
    return instances.get(i);
  }

  List<Instance> all() {
    return instances;
  }

  void awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Instance instance : instances) {
      while (!instance.stage().ready()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(instance.host() + " not running after " + timeout);
        }
        Thread.sleep(100);
      }
    }
  }

  private static AccessReviews onlyTheReader() {
    return new AccessReviews() {
      @Override
      public Optional<Subject> authenticate(String token) {
        return token.equals(TOKEN) ? Optional.of(new Subject("reader", "uid-reader", List.of(), Map.of()))
            : Optional.empty();
      }

      @Override
      public boolean mayGet(Subject subject, String path) {
        return path.equals("/bookings");
      }
    };
  }

  /** Stops instance {@code i}'s bookings endpoint; its topology runs on, still named the active owner. */
  void unreachable(int i) {
    if (closed.add("ops" + i)) {
      instances.get(i).ops().close();
    }
  }

  /** Stops instance {@code i} whole: it leaves the group, and its tasks move. */
  void stop(int i) {
    if (closed.add("stage" + i)) {
      instances.get(i).stage().close();
    }
    unreachable(i);
  }

  @Override
  public void close() {
    for (int i = 0; i < instances.size(); i++) {
      stop(i);
    }
  }
}
