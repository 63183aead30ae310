package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.KubernetesAccessReviews;
import dev.kubeheadroom.ops.MeterBinders;
import dev.kubeheadroom.ops.OpsServer;
import dev.kubeheadroom.ops.PodSeries;
import dev.kubeheadroom.ops.Readiness;
import dev.kubeheadroom.ops.TlsMaterialException;
import dev.kubeheadroom.ops.TokenAuthorizer;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.StageFailure;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every long-running stage command shares: the metrics registry and Headroom's meters, the
 * readiness checks and the ops server, the resources to close in reverse order, and the wait
 * until a signal ends the process, or its {@link Pipeline} gives up on a failed stage.
 */
final class StageRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StageRuntime.class);
  private static final Duration FAILURE_POLL = Duration.ofMillis(500);

  final PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
  final HeadroomMetrics metrics;
  final Readiness readiness = new Readiness();
  /** The stages' routes go to the ops server, started before any stage. */
  final StageContext context;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);
  private OpsServer server;

  /** Not ready until every stage has started and registered its own check. */
  static final String STARTING = "starting";

  private StageRuntime(PodSeries podSeries) {
    metrics = new HeadroomMetrics(registry, podSeries);
    context = new StageContext(registry, metrics, Clock.systemUTC(),
        (path, handler) -> this.server.route(path, handler));
  }

  /**
   * Starts the ops server; with {@code --metrics-auth=kubernetes} its metrics port reviews each
   * bearer token through a client from {@code kubernetes} (owned by the runtime).
   */
  static StageRuntime start(OpsOptions ops, Supplier<KubernetesClient> kubernetes) {
    StageRuntime runtime = new StageRuntime(ops.podSeries());
    runtime.readiness.add(STARTING, () -> false);
    runtime.own(MeterBinders.bindJvm(runtime.registry));
    try {
      Optional<TokenAuthorizer> authorizer = Optional.empty();
      if (ops.metricsAuth == OpsOptions.MetricsAuth.kubernetes) {
        KubernetesClient client = runtime.own(kubernetes.get());
        authorizer = Optional.of(new TokenAuthorizer(new KubernetesAccessReviews(client)));
        LOG.info("metrics port: TokenReview and SubjectAccessReview at {} (--metrics-auth=none turns it off)",
            client.getMasterUrl());
      }
      runtime.server = runtime.own(OpsServer.start(
          ops.config(), runtime.registry, runtime.readiness, Clock.systemUTC(), authorizer));
    } catch (TlsMaterialException e) {
      runtime.close();
      throw new UserError("--metrics-cert-path: " + e.getMessage());
    } catch (java.io.IOException | RuntimeException e) {
      runtime.close();
      throw new UserError("cannot serve health/metrics: " + e.getMessage());
    }
    return runtime;
  }

  int healthPort() {
    return server.healthPort();
  }

  int metricsPort() {
    return server.metricsPort();
  }

  /** Closed when the runtime closes, after everything owned later. */
  <T extends AutoCloseable> T own(T resource) {
    resources.push(resource);
    return resource;
  }

  /**
   * Runs {@code pipeline} (owned from here on): each stage is a readiness check, and its
   * failures are handled by the pipeline's {@link dev.kubeheadroom.pipeline.RestartPolicy}. Blocks
   * until SIGTERM/SIGINT (exit 0) or the pipeline gives up on a stage (exit 1), then closes
   * everything in reverse order of start.
   */
  int run(Pipeline pipeline) {
    own(pipeline);
    pipeline.names().forEach(name -> readiness.add(name, () -> pipeline.ready(name)));
    return runUntilStopped(pipeline::supervise);
  }

  /** As {@link #run}, with {@code supervise} telling when to give up (exit 1). */
  int runUntilStopped(Supplier<Optional<StageFailure>> supervise) {
    readiness.remove(STARTING);
    Thread hook = new Thread(() -> {
      stopRequested.countDown();
      try {
        closed.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "headroom-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int code = 0;
    boolean interrupted = false;
    try {
      while (!stopRequested.await(FAILURE_POLL.toMillis(), TimeUnit.MILLISECONDS)) {
        Optional<StageFailure> failed = supervise.get();
        if (failed.isPresent()) {
          LOG.error("Giving up on stage {}; stopping (exit 1)", failed.get().stage()); // the pipeline logged why
          code = 1;
          break;
        }
      }
    } catch (InterruptedException e) {
      // An embedding thread asked us to stop: stop cleanly. The flag is restored only after the
      // close, or every client would abort its own orderly close (and log why, with a trace).
      interrupted = true;
    } finally {
      close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException ignored) {
        // already shutting down: the hook is running
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return code;
  }

  @Override
  public void close() {
    while (!resources.isEmpty()) {
      AutoCloseable r = resources.pop();
      try {
        r.close();
      } catch (Exception e) {
        LOG.warn("Closing {} failed: {}", r.getClass().getSimpleName(), e.toString());
      }
    }
    closed.countDown();
  }
}
