package dev.kubeheadroom.testkit;

import dev.kubeheadroom.kafka.embedded.BrokerPorts;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;

/**
 * Several KRaft nodes in this JVM, each a combined broker and controller with its own data
 * directory and loopback ports, forming one cluster: what a test needs to lose a broker while
 * records flow, as a production Kafka with replication factor 3 and {@code min.insync.replicas} 2
 * would.
 *
 * <p>Every node is a voter of the controller quorum, so the cluster keeps its metadata with one
 * node down (2 of 3). Internal topics (offsets, transaction state) get replication factor
 * {@code min(3, nodes)} and min ISR {@code min(2, nodes)}, as do topics created without explicit
 * settings. {@link #stop(int)} is a hard stop: no controlled shutdown, so leaders do not move
 * until the controller fences the node after {@code broker.session.timeout.ms} (9 s by default),
 * as after a crash; {@link #restart(int)} brings it back on the same directory and ports.
 *
 * <pre>{@code
 * try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.start(dir, 3)) {
 *   producerProps.put("bootstrap.servers", kafka.bootstrapServers());
 *   kafka.stop(1); ... kafka.restart(1);
 * }
 * }</pre>
 */
public final class EmbeddedKafkaCluster implements KafkaBroker, AutoCloseable {
  private final List<ClusterNode> nodes;

  private EmbeddedKafkaCluster(List<ClusterNode> nodes) {
    this.nodes = nodes;
  }

  /** Starts {@code size} nodes under {@code dataDir} ({@code node-0}, {@code node-1}, ...). */
  public static EmbeddedKafkaCluster start(Path dataDir, int size) {
    return start(dataDir, size, Map.of());
  }

  /**
   * As {@link #start(Path, int)}, with broker properties applied to every node last (for example
   * a shorter {@code broker.session.timeout.ms}); listener and quorum settings are owned here.
   */
  public static EmbeddedKafkaCluster start(Path dataDir, int size, Map<String, String> overrides) {
    if (size < 1) {
      throw new IllegalArgumentException("a cluster needs at least 1 node, got " + size);
    }
    EmbeddedKafka.quietLogs();
    List<BrokerPorts> ports = distinctPorts(size);
    String voters = voters(ports);
    String clusterId = Uuid.randomUuid().toString();
    List<ClusterNode> nodes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Path dir = dataDir.resolve("node-" + i).toAbsolutePath().normalize();
      Properties props = nodeProperties(dir, i, ports.get(i), voters, size);
      overrides.forEach(props::setProperty);
      nodes.add(new ClusterNode(i, dir, clusterId, props, ports.get(i).broker()));
    }
    EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(nodes);
    // Together: a node's start-up waits for a controller quorum that only the others can complete.
    try {
      inParallel(nodes.stream().<Runnable>map(n -> n::start).toList());
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** Every node's client address, for {@code bootstrap.servers}. */
  @Override
  public String bootstrapServers() {
    return nodes.stream().map(ClusterNode::address).collect(Collectors.joining(","));
  }

  public int size() {
    return nodes.size();
  }

  /** The node's KRaft {@code node.id} (and broker id): {@code index + 1}. */
  public int nodeId(int index) {
    return index + 1;
  }

  public boolean running(int index) {
    return nodes.get(index).running();
  }

  /** Hard-stops one node (no controlled shutdown); its data stays for {@link #restart}. */
  public void stop(int index) {
    nodes.get(index).stop();
  }

  /** Starts a stopped node again on the same directory and ports; returns once it serves. */
  public void restart(int index) {
    nodes.get(index).start();
  }

  @Override
  public String description() {
    return "embedded Kafka cluster of " + nodes.size() + " nodes at " + bootstrapServers();
  }

  /** Stops every running node (together: the last ones would otherwise wait for a lost quorum). */
  @Override
  public void close() {
    inParallel(nodes.stream().filter(ClusterNode::running).<Runnable>map(n -> n::stop).toList());
  }

  /**
   * Runs each task on its own thread and waits for all; rethrows the first failure. Not the
   * common pool: on a 2-core machine it runs one task at a time, and a node's start blocks until
   * the others start.
   */
  private static void inParallel(List<Runnable> tasks) {
    ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, tasks.size()));
    try {
      List<Future<?>> running = tasks.stream().<Future<?>>map(threads::submit).toList();
      RuntimeException first = null;
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause() instanceof RuntimeException r ? r : new EmbeddedKafkaException(e.getMessage(), e);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new EmbeddedKafkaException("interrupted", e);
        }
      }
      if (first != null) {
        throw first;
      }
    } finally {
      threads.shutdown();
    }
  }

  /** {@link EmbeddedKafka#brokerProperties} for one of {@code size} voters. */
  static Properties nodeProperties(Path dir, int index, BrokerPorts ports, String voters, int size) {
    Properties p = EmbeddedKafka.brokerProperties(dir.resolve("kraft-logs"), ports.broker(), ports.controller());
    p.setProperty("node.id", Integer.toString(index + 1));
    p.setProperty("controller.quorum.voters", voters);
    String replicas = Integer.toString(Math.min(3, size));
    String minIsr = Integer.toString(Math.min(2, size));
    p.setProperty("offsets.topic.replication.factor", replicas);
    p.setProperty("transaction.state.log.replication.factor", replicas);
    p.setProperty("transaction.state.log.min.isr", minIsr);
    p.setProperty("share.coordinator.state.topic.replication.factor", replicas);
    p.setProperty("share.coordinator.state.topic.min.isr", minIsr);
    p.setProperty("default.replication.factor", replicas);
    p.setProperty("min.insync.replicas", minIsr);
    // A stop is a crash as far as the cluster can tell: leaders move only once the node is fenced.
    p.setProperty("controlled.shutdown.enable", "false");
    return p;
  }

  private static String voters(List<BrokerPorts> ports) {
    List<String> voters = new ArrayList<>();
    for (int i = 0; i < ports.size(); i++) {
      voters.add((i + 1) + "@127.0.0.1:" + ports.get(i).controller());
    }
    return String.join(",", voters);
  }

  /** Ephemeral pairs, probed one after another: a port released by one probe may come back. */
  private static List<BrokerPorts> distinctPorts(int size) {
    Set<Integer> seen = new HashSet<>();
    List<BrokerPorts> ports = new ArrayList<>();
    for (int tries = 0; ports.size() < size; tries++) {
      if (tries > size * 10) {
        throw new EmbeddedKafkaException("cannot find " + size * 2 + " distinct free ports on 127.0.0.1");
      }
      BrokerPorts pair = BrokerPorts.choose(EmbeddedKafkaConfig.EPHEMERAL_PORT);
      if (pair.broker() != pair.controller() && seen.add(pair.broker()) && seen.add(pair.controller())) {
        ports.add(pair);
      }
    }
    return ports;
  }
}
