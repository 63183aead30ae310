package dev.kubeheadroom.actuator;

import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import dev.kubeheadroom.actuator.ResizePatcher.Attempt;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.PodLogContext;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterStateReader;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actuator stage (docs/design/pipeline.md): decisions in, resizes, annotations and events out to
 * Kubernetes, outcomes back to Kafka.
 *
 * <p>One loop thread: poll {@code decisions} (consumer group, manual commits) → {@link Coalescer}
 * (newest change per pod) → for each ready change whose node has a token in the
 * {@link RateBudget} (a node out of tokens is skipped, never waited on) → {@link DecisionGate}
 * ({@code rejected} unless the namespace is managed and the decision fresh) → {@link ResizePatcher}
 * (with the gate's pod checks; for a dry-run decision or under a dry-run config, only those) →
 * {@link OutcomeWriter}. After each round the outcomes are flushed and only then are the offsets
 * of fully handled records committed, so a crash re-reads every change without an outcome (and a
 * re-read change whose pod is already at its target is not patched again). Transient API failures
 * are retried per {@link RetryPolicy} without blocking the loop; that is the only retry layer
 * ({@link ActuatorClient}: each call is one HTTP request). While Kafka does not answer, nothing is
 * tried and the stage is not ready ({@link KafkaPresence}); while the API server does not answer,
 * likewise, but for one change per look ({@link ApiPresence}); it never exits for either.
 */
public final class Actuator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Actuator.class);
  /** A round of tries stops after this long so polling (and config) stay fresh. */
  private static final Duration ROUND = Duration.ofMillis(500);
  private static final Duration IDLE_POLL = Duration.ofMillis(200);
  private static final int LIVE_REQUESTS = 4, DRY_RUN_REQUESTS = 3; // GET, (resize,) annotation, event

  private final ActuatorSettings settings;
  private final Clock clock;
  private final LongSupplier ticker;
  private final KafkaConsumer<String, byte[]> consumer;
  private final ActuatorClient kube;
  private final ClusterStateReader cluster;
  private final OutcomePublisher publisher;
  private final ResizePatcher patcher;
  private final OutcomeWriter outcomes;
  private final ActuatorMetrics metrics;
  private final Coalescer coalescer = new Coalescer();
  private final DecisionIntake intake;
  private final RateBudget budget;
  private final Thread loop;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean running = true;
  private volatile boolean ready;
  private volatile Throwable failure;
  private final KafkaPresence kafka;
  private final ApiPresence api;
  private long lastPrune;

  private Actuator(ActuatorSettings settings, Config kubeConfig, MeterRegistry registry,
      HeadroomMetrics shared, Clock clock, LongSupplier ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ticker = ticker;
    this.metrics = new ActuatorMetrics(Objects.requireNonNull(registry, "registry"),
        Objects.requireNonNull(shared, "shared metrics"));
    this.kube = ActuatorClient.connect(Objects.requireNonNull(kubeConfig, "kubeConfig"));
    KubernetesClient client = kube.kubernetes();
    this.patcher = new ResizePatcher(kube);
    this.cluster = new ClusterStateReader(settings.groupId() + "-config", settings.stateReaderConfig(),
        settings.topics(), settings.configView(), reason -> { }); // (the reader logs each)
    this.publisher = new OutcomePublisher(settings);
    this.outcomes = new OutcomeWriter(new StatusAnnotator(client), new EventRecorder(client, clock, settings.instance()),
        metrics, publisher, clock);
    this.intake = new DecisionIntake(coalescer, publisher, metrics, clock);
    this.consumer = new KafkaConsumer<>(settings.decisionsConsumer(), new StringDeserializer(),
        new ByteArrayDeserializer());
    this.kafka = new KafkaPresence(ticker, consumer);
    this.api = new ApiPresence(ticker, settings.retry().maxServerDelay());
    this.budget = new RateBudget(cluster.state().config().rateLimits(), ticker);
    this.loop = new Thread(this::run, "headroom-actuator");
  }

  /**
   * Starts the loop thread. Topics must exist ({@code TopicBootstrap}). The actuator builds its
   * own Kubernetes client from {@code kubeConfig} ({@link ActuatorClient}: fabric8's retries off,
   * which it sets on that config) and closes it on {@link #close()}.
   */
  public static Actuator start(ActuatorSettings settings, Config kubeConfig,
      MeterRegistry registry, Clock clock) {
    return start(settings, kubeConfig, registry, new HeadroomMetrics(registry), clock);
  }

  /** As above, reporting the shared meters through the process's one {@link HeadroomMetrics}. */
  public static Actuator start(ActuatorSettings settings, Config kubeConfig,
      MeterRegistry registry, HeadroomMetrics shared, Clock clock) {
    Actuator actuator = new Actuator(settings, kubeConfig, registry, shared, clock, System::nanoTime);
    actuator.loop.start();
    return actuator;
  }

  /**
   * For probes: the config is read, the group assigned partitions once, nothing has failed, and
   * Kafka and the API server answer (while one does not, the actuator waits for it: not ready, not
   * failed).
   */
  public boolean ready() {
    return ready && running && failure == null && kafka.answers() && api.answers();
  }

  /** What stopped the loop, if it failed. */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /** Blocks until the loop has ended (after {@link #close()}, or a failure); true if it did. */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Stops polling, lets the current try finish, flushes outcomes, commits what is handled and
   * closes the Kafka clients. Changes not yet handled stay uncommitted for the next owner.
   */
  @Override
  public void close() {
    if (stopped.getCount() == 0) {
      return;
    }
    running = false;
    consumer.wakeup();
    try {
      if (!stopped.await(30, TimeUnit.SECONDS)) {
        LOG.warn("Actuator loop did not stop within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- the loop (all below runs on the loop thread) --------------------------------------------
  private void run() {
    try {
      ClusterConfig seen = loadConfig();
      budget.update(seen.rateLimits());
      GroupShare.subscribe(consumer, settings.topics().decisions(),
          new DecisionsRebalance(consumer, coalescer, publisher, this::commit, () -> ready = true), budget);
      LOG.info("Actuator started: group {}, decisions from {}, dryRun {}, rate limits {} (shared by the group)",
          settings.groupId(), settings.topics().decisions(), seen.dryRun(), seen.rateLimits());
      while (running) {
        try {
          ClusterConfig next = cluster.state().config();
          if (!next.equals(seen)) {
            seen = next;
            LOG.info("Cluster config changed: dryRun {}, rate limits {}", next.dryRun(), next.rateLimits());
            budget.update(next.rateLimits());
          }
          intake.take(consumer.poll(pollTimeout()));
          kafka.check();
          if (kafka.answersNow()) {
            round();
            commit(coalescer.committable()); // (while Kafka is away a commit would block its timeout)
          }
          prune();
        } catch (RetriableException e) {
          // Kafka did not answer in time (a TimeoutException is one): nothing is lost by waiting
          // for it, and a restart would not bring it back (DESIGN.md, "Kafka outages")
          kafka.away(e.getMessage());
        }
      }
    } catch (WakeupException e) {
      if (running) {
        failure = e;
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      LOG.error("Actuator failed; stopping", e);
    } finally {
      ready = false;
      shutdown();
      stopped.countDown();
    }
  }

  /** The cluster state read to its end; Kafka is away while that takes longer than {@code configTimeout}. */
  private ClusterConfig loadConfig() {
    cluster.start();
    long deadline = System.nanoTime() + settings.configTimeout().toNanos();
    while (!cluster.awaitWarm(IDLE_POLL)) {
      if (!running || Thread.currentThread().isInterrupted()) {
        throw new WakeupException(); // closed meanwhile: not a failure
      }
      if (System.nanoTime() > deadline) {
        kafka.away("cannot read " + settings.topics().config() + " within " + settings.configTimeout());
        deadline = System.nanoTime() + settings.configTimeout().toNanos();
      }
    }
    kafka.back();
    return cluster.state().config();
  }

  private void shutdown() {
    try {
      if (publisher.flush().isEmpty()) {
        commit(coalescer.committable());
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not commit on shutdown (the next owner re-reads those changes): {}", e.getMessage());
    }
    closeQuietly(consumer::close);
    closeQuietly(cluster::close);
    closeQuietly(publisher::close);
    closeQuietly(kube::close);
    LOG.info("Actuator stopped");
  }

  private static void closeQuietly(Runnable close) {
    try {
      close.run();
    } catch (RuntimeException e) {
      LOG.debug("close failed", e);
    }
  }

  /** Poll at once when work is ready, else until the next retry or a token is due (none before the global bucket's floor). */
  private Duration pollTimeout() {
    long now = ticker.getAsLong();
    if (!api.mayTry()) {
      return Duration.ofNanos(Math.min(api.lookAgainAt() - now, IDLE_POLL.toNanos()));
    }
    long floor = budget.nanosUntilGlobal(cluster.state().config().dryRun() || coalescer.anyDryRun() ? DRY_RUN_REQUESTS : LIVE_REQUESTS);
    long wait = coalescer.leastReady(now, IDLE_POLL.toNanos(), floor,
        work -> budget.nanosUntilAvailable(work.node(), cost(governed(work))));
    long retry = coalescer.nextRetryNanos().orElse(Long.MAX_VALUE);
    return Duration.ofNanos(Math.max(0, retry == Long.MAX_VALUE ? wait : Math.min(wait, retry - now)));
  }

  /** Tries ready changes whose node has a token (a refusal needs none) until the global bucket is spent; flushes, releases. */
  private void round() {
    long started = ticker.getAsLong();
    List<PodWork> handled = new ArrayList<>();
    if (!api.answers() && coalescer.pendingCount() == 0) {
      api.nothingWaits();
    }
    coalescer.visitReady(started, queued -> {
      if (!running || ticker.getAsLong() - started > ROUND.toNanos() || !api.mayTry()) {
        return false;
      }
      PodWork work = governed(queued);
      Optional<DecisionGate.Rejection> rejection = DecisionGate.check(work, cluster.state().config(),
          cluster.state().namespace(work.change().namespace()), clock.instant(), settings.maxDecisionAge());
      if (rejection.isEmpty() && !budget.tryAcquire(work.node(), cost(work))) {
        return budget.nanosUntilGlobal(cost(work)) == 0; // this node waits for its bucket; the others go on
      }
      try (var pod = PodLogContext.of(work.change().namespace(), work.change().name())) {
        if (tryOnce(queued, work, rejection)) {
          handled.add(queued);
        }
      }
      return true;
    });
    if (!handled.isEmpty()) {
      Optional<Exception> unrecorded = publisher.flush();
      if (unrecorded.isPresent()) {
        // Not handled until its outcome is recorded: tried again once Kafka answers (a pod already
        // at its target then ends "applied" without a second resize), never committed before.
        kafka.away("an outcome could not be written: " + unrecorded.get().getMessage());
        handled.forEach(work -> coalescer.postpone(work, kafka.lookAgainAt()));
        return;
      }
      handled.forEach(coalescer::handled);
    }
  }

  /** The current config governs: under {@code dryRun: true} an enforcing backlog is dry-run too. */
  private PodWork governed(PodWork work) {
    return cluster.state().config().dryRun() && !work.dryRun() ? work.asDryRun() : work;
  }

  private static int cost(PodWork work) {
    return work.dryRun() ? DRY_RUN_REQUESTS : LIVE_REQUESTS;
  }

  /** One try of {@code work} ({@code queued} as governed); true when it ended with an outcome, false when retried. */
  private boolean tryOnce(PodWork queued, PodWork work, Optional<DecisionGate.Rejection> rejection) {
    if (rejection.isPresent()) {
      metrics.rejected(rejection.get().rule());
      outcomes.finish(work, OutcomeResult.REJECTED, rejection.get().message(), false, null);
      return true;
    }
    LimitRangeCaps caps = cluster.state().namespace(work.change().namespace()).map(NamespaceInfo::limitRangeCaps)
        .orElse(LimitRangeCaps.NONE);
    Verdict verdict;
    boolean patchSent;
    String status = null;
    if (work.dryRun()) {
      verdict = patcher.verify(work, caps);
      patchSent = false;
    } else {
      Timer.Sample sample = Timer.start();
      Attempt attempt = patcher.resize(work, caps);
      if (attempt.patchSent()) {
        metrics.patched(sample, work.at(), clock.instant());
      }
      verdict = attempt.verdict();
      patchSent = attempt.patchSent();
      status = attempt.status();
    }
    if (verdict instanceof Verdict.Transient t && !patchSent) { // the read went unanswered: not a try
      api.unanswered(t);
      coalescer.postpone(queued, api.lookAgainAt());
      return false;
    }
    api.answered();
    int tries = work.attempt() + 1;
    OutcomeResult result;
    String message;
    if (verdict instanceof Verdict.Rejected r) {
      metrics.rejected(r.rejection().rule()); // the checks that need the pod
      result = OutcomeResult.REJECTED;
      message = r.rejection().message();
    } else if (verdict instanceof Verdict.Final f) {
      result = f.result();
      message = f.message();
    } else {
      Verdict.Transient t = (Verdict.Transient) verdict;
      if (settings.retry().allowsAnotherAfter(tries)) {
        Duration delay = settings.retry().delayAfter(tries, t.retryAfter());
        LOG.debug("{}: transient failure (try {}), retrying in {} ms: {}", work.describe(), tries,
            delay.toMillis(), t.message());
        coalescer.retryLater(queued, ticker.getAsLong() + delay.toNanos());
        return false;
      }
      result = OutcomeResult.ERROR;
      message = "gave up after " + tries + " tries: " + t.message();
    }
    outcomes.finish(work, result, message, patchSent, status);
    return true;
  }

  private void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
    } catch (CommitFailedException e) {
      // the group moved the partitions on: their next owner re-reads what is not committed
      LOG.warn("Could not commit {}: {}", offsets.keySet(), e.getMessage());
      return;
    }
    coalescer.committed(offsets);
  }

  private void prune() {
    long now = ticker.getAsLong();
    if (now - lastPrune > Duration.ofSeconds(10).toNanos()) {
      budget.forgetIdleNodes();
      lastPrune = now;
    }
  }
}
