package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;

/**
 * In-JVM topology instances of one application id (one consumer group), as several topology pods
 * would run, each reporting every node evaluation it makes: when each node was first evaluated,
 * and a timeline of (instance, node, time) for failover.
 */
final class TopologyInstances implements AutoCloseable {
  /** One evaluation: which instance, which node, {@link System#nanoTime()}. */
  record Evaluation(String instance, String node, long nanos) {}

  private final KafkaClientSettings kafka;
  private final Topics topics;
  private final Path stateRoot;
  private final String applicationId;
  private final Map<String, TopologyRunner> running = new ConcurrentHashMap<>();
  final Map<String, Long> firstEvaluated = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<Evaluation> timeline = new ConcurrentLinkedQueue<>();
  final AtomicLong decisions = new AtomicLong();
  final AtomicLong evaluations = new AtomicLong();

  TopologyInstances(KafkaClientSettings kafka, Topics topics, Path stateRoot, String applicationId) {
    this.kafka = kafka;
    this.topics = topics;
    this.stateRoot = stateRoot;
    this.applicationId = applicationId;
  }

  /** Starts instance {@code name} (its own state directory) with {@code standbys} standby replicas. */
  void start(String name, int standbys) {
    TopologyListener listener = new TopologyListener() {
      @Override
      public void evaluated(String node, long nanos) {
        long now = System.nanoTime();
        evaluations.incrementAndGet();
        firstEvaluated.putIfAbsent(node, now);
        timeline.add(new Evaluation(name, node, now));
      }

      @Override
      public void decided(NodeDecision decision) {
        decisions.incrementAndGet();
      }
    };
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(applicationId, kafka,
        stateRoot.resolve(name), standbys, ""), TopologySettings.defaults(topics), listener);
    running.put(name, runner);
  }

  /** Waits until every instance is RUNNING. */
  void awaitRunning(Duration timeout) throws InterruptedException {
    for (TopologyRunner runner : running.values()) {
      if (!runner.awaitRunning(timeout)) {
        throw new IllegalStateException("topology instance not running after " + timeout + ": " + runner.state());
      }
    }
  }

  /**
   * Stops instance {@code name} as a crash looks to the group: it does not leave, so the group
   * notices only when its session times out (an in-JVM close still aborts its open transaction,
   * which a kill -9 leaves to {@code transaction.timeout.ms}).
   */
  void crash(String name) {
    TopologyRunner runner = running.remove(name);
    runner.streams().close(new KafkaStreams.CloseOptions().leaveGroup(false).timeout(Duration.ofSeconds(30)));
  }

  /** Stops instance {@code name} cleanly: it leaves the group, which rebalances at once. */
  void stop(String name) {
    running.remove(name).close();
  }

  Set<String> names() {
    return Set.copyOf(running.keySet());
  }

  /** The evaluations after {@code sinceNanos}, oldest first. */
  List<Evaluation> since(long sinceNanos) {
    return timeline.stream().filter(e -> e.nanos() >= sinceNanos).toList();
  }

  @Override
  public void close() {
    List.copyOf(running.keySet()).forEach(this::stop);
  }
}
