package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
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
 * Topology instances of one application id (one consumer group), as several topology pods would
 * run, in this JVM or each in its own ({@link TopologyProcess}, for a real kill -9), each
 * reporting every node evaluation it makes: when each node was first evaluated, a timeline of
 * (instance, node, time) for failover, and each instance's state changes.
 */
final class TopologyInstances implements AutoCloseable {
  /** One evaluation: which instance, which node, {@link System#nanoTime()}. */
  record Evaluation(String instance, String node, long nanos) {}

  /** An instance's Kafka Streams state from {@code nanos} on. */
  record StateChange(String instance, String state, long nanos) {}

  /** A running instance: in this JVM, or a child JVM. */
  private sealed interface Instance permits InJvm, Forked {}

  private record InJvm(TopologyRunner runner) implements Instance {}

  private record Forked(TopologyProcess process) implements Instance {}

  private final KafkaClientSettings kafka;
  private final Topics topics;
  private final Path stateRoot;
  private final String applicationId;
  private final FailoverTimeouts timeouts;
  private final int partitions;
  private final String childXmx;
  private final Map<String, Instance> running = new ConcurrentHashMap<>();
  final Map<String, Long> firstEvaluated = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<Evaluation> timeline = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<StateChange> states = new ConcurrentLinkedQueue<>();
  final AtomicLong decisions = new AtomicLong();
  final AtomicLong evaluations = new AtomicLong();
  private final Thread stateSampler;

  TopologyInstances(KafkaClientSettings kafka, Topics topics, Path stateRoot, String applicationId,
      FailoverTimeouts timeouts, int partitions, String childXmx) {
    this.kafka = kafka;
    this.topics = topics;
    this.stateRoot = stateRoot;
    this.applicationId = applicationId;
    this.timeouts = timeouts;
    this.partitions = partitions;
    this.childXmx = childXmx;
    this.stateSampler = new Thread(this::sampleStates, "topology-states");
    stateSampler.setDaemon(true);
    stateSampler.start();
  }

  String applicationId() {
    return applicationId;
  }

  /** Starts instance {@code name} in this JVM (its own state directory) with {@code standbys} standby replicas. */
  void start(String name, int standbys) {
    TopologyListener listener = new TopologyListener() {
      @Override
      public void evaluated(String node, long nanos) {
        evaluatedBy(name, node, System.nanoTime());
      }

      @Override
      public void decided(NodeDecision decision) {
        decisions.incrementAndGet();
      }
    };
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(applicationId, kafka,
        stateRoot.resolve(name), standbys, "", timeouts), TopologySettings.defaults(topics), listener);
    running.put(name, new InJvm(runner));
  }

  /** Starts instance {@code name} in a child JVM ({@link TopologyProcess}), its stderr in {@code log}. */
  void fork(String name, int standbys, Path log) {
    TopologyProcess process = TopologyProcess.launch(name, kafka.bootstrapServers(), applicationId,
        stateRoot.resolve(name), standbys, partitions, timeouts, childXmx, log, r -> {
          switch (r.kind()) {
            case 'E' -> evaluatedBy(name, r.subject(), r.nanos());
            case 'D' -> decisions.incrementAndGet();
            case 'S' -> states.add(new StateChange(name, r.subject(), r.nanos()));
            default -> { }
          }
        });
    running.put(name, new Forked(process));
  }

  private void evaluatedBy(String name, String node, long nanos) {
    evaluations.incrementAndGet();
    firstEvaluated.putIfAbsent(node, nanos);
    timeline.add(new Evaluation(name, node, nanos));
  }

  /** In-JVM instances' state changes, sampled every 10 ms (Streams' own listener is the runner's). */
  private void sampleStates() {
    Map<String, String> last = new java.util.HashMap<>();
    while (!Thread.currentThread().isInterrupted()) {
      running.forEach((name, instance) -> {
        if (instance instanceof InJvm j) {
          String now = j.runner().state().toString();
          if (!now.equals(last.put(name, now))) {
            states.add(new StateChange(name, now, System.nanoTime()));
          }
        }
      });
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Waits until every instance is RUNNING. */
  void awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Map.Entry<String, Instance> e : running.entrySet()) {
      if (e.getValue() instanceof InJvm j) {
        if (!j.runner().awaitRunning(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
          throw new IllegalStateException("topology instance not running after " + timeout + ": " + j.runner().state());
        }
      } else {
        while (!"RUNNING".equals(state(e.getKey()))) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("forked topology instance " + e.getKey() + " not running after " + timeout
                + ": " + state(e.getKey()));
          }
          Thread.sleep(20);
        }
      }
    }
  }

  /** The last state {@code name} reported, or null. */
  String state(String name) {
    String state = null;
    for (StateChange c : states) {
      if (c.instance().equals(name)) {
        state = c.state();
      }
    }
    return state;
  }

  /** SIGSTOP or SIGCONT to forked instance {@code name} ({@link TopologyProcess#freeze}). */
  void freeze(String name, boolean stop) throws java.io.IOException, InterruptedException {
    ((Forked) running.get(name)).process().freeze(stop);
  }

  /**
   * Stops instance {@code name} as a crash looks to the group: it does not leave, so the group
   * notices only when its session times out. A forked instance gets SIGKILL (its open transaction
   * stays open until the coordinator aborts it); an in-JVM one is closed without leaving the group,
   * which still aborts its open transaction at once. Returns the child's exit status, or -1.
   */
  int crash(String name) throws InterruptedException {
    Instance instance = running.remove(name);
    if (instance instanceof Forked f) {
      return f.process().kill();
    }
    ((InJvm) instance).runner().streams().close(
        new KafkaStreams.CloseOptions().leaveGroup(false).timeout(Duration.ofSeconds(30)));
    return -1;
  }

  /** Stops instance {@code name} cleanly: it leaves the group, which rebalances at once. */
  void stop(String name) {
    Instance instance = running.remove(name);
    if (instance instanceof InJvm j) {
      j.runner().close();
    } else if (instance instanceof Forked f) {
      try {
        f.process().close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  Set<String> names() {
    return Set.copyOf(running.keySet());
  }

  /** The evaluations after {@code sinceNanos}, oldest first. */
  List<Evaluation> since(long sinceNanos) {
    return timeline.stream().filter(e -> e.nanos() >= sinceNanos).toList();
  }

  /** Stops every instance (they leave the group); new ones may start after. */
  void stopAll() {
    List.copyOf(running.keySet()).forEach(this::stop);
  }

  @Override
  public void close() {
    stopAll();
    stateSampler.interrupt();
  }
}
