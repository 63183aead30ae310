package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the topology mid-stream, as the fault suite's row does it to the chart's stage: its
 * own JVM ({@link TopologyProcess}), static membership, killed with SIGKILL while tenants change
 * pods and an actuator applies what it reads (read_committed, as the real one), started again 3 s
 * later on the same state directory. Then every node must be decided again, and what it decides
 * must reach a read_committed reader: a decision that is made but never committed is one the
 * actuator never sees.
 */
@WithKafka
class TopologyKillTest {
  private static final List<String> NODES = List.of("n1", "n2", "n3");
  /** The chart's two replicas, each its pod name as the instance id and its own volume. */
  private static final int REPLICAS = 2;
  @TempDir Path stateDirs;
  @TempDir Path logs;

  @Test
  void afterAKillNineEveryNodesChangeIsDecidedAndCommittedAgain(KafkaBroker kafka) throws Exception {
    play(kafka);
  }

  /**
   * Tenants change pods and decisions flow (a probe pod per node decided and committed); then the
   * kill, and after the restart a probe pod per node must be decided and committed again.
   */
  private void play(KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("kill") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3), Duration.ofSeconds(30));
    }
    String app = TestKafka.uniqueName("kill-app");
    Path log = logs.resolve("topology.log");
    Map<String, PodSnapshot> live = new ConcurrentHashMap<>();
    try (KafkaProducer<String, byte[]> producer = kafka.producer(new StringSerializer(), new ByteArraySerializer());
        Actuator actuator = new Actuator(kafka, topics, producer, live)) {
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a"))));
      for (String node : NODES) {
        send(producer, topics, new NodeSnapshot(node, 16000, "linux", false, Map.of()));
      }
      Random random = new Random(7);
      List<Process> topology = start(kafka, topics, app, log);
      try {
        churn(producer, topics, live, random, 20); // pods arrive before it runs: a backlog to decide
        // (generous bounds: two JVMs start and restore here, on a machine that may be busy)
        await("the first decisions applied", () -> actuator.applied() > 0, Duration.ofSeconds(180), log);
        probe(producer, topics, live, actuator, "before", log);

        churn(producer, topics, live, random, 30); // mid-stream: decisions in flight when it dies
        kill(topology);
        churn(producer, topics, live, random, 30); // the tenants go on for the 3 s it is down
        topology = start(kafka, topics, app, log);

        // then: a probe pod per node, each node's last event; its decision must reach the actuator
        Instant probed = Instant.now();
        probe(producer, topics, live, actuator, "after", log);
        System.out.printf("every node decided again %d ms after the restart%n",
            Duration.between(probed, Instant.now()).toMillis());
      } finally {
        kill(topology);
      }
    }
  }

  /** A probe pod per node; each node's decision of it must reach the actuator (read_committed) within 120 s. */
  private static void probe(KafkaProducer<String, byte[]> producer, Topics topics, Map<String, PodSnapshot> live,
      Actuator actuator, String round, Path log) throws Exception {
    for (String node : NODES) {
      PodSnapshot probe = pod("team-a", "probe-" + round + "-" + node, node, 1000, 0);
      live.put(probe.uid(), probe);
      send(producer, topics, probe);
    }
    producer.flush();
    await("a committed decision for every node's probe pod (" + round + ")",
        () -> NODES.stream().allMatch(n -> actuator.decided("uid-probe-" + round + "-" + n)), Duration.ofSeconds(120),
        log);
  }

  private List<Process> start(KafkaBroker kafka, Topics topics, String app, Path log) throws Exception {
    List<Process> started = new ArrayList<>();
    for (int i = 0; i < REPLICAS; i++) {
      Path dir = Files.createDirectories(stateDirs.resolve("topology-" + i));
      started.add(TopologyProcess.start(kafka.bootstrapServers(), topics, app, dir, "topology-" + i, log));
    }
    return started;
  }

  private static void kill(List<Process> processes) throws InterruptedException {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    for (Process p : processes) {
      p.waitFor();
    }
  }

  /** {@code steps} tenant changes, 100 ms apart: a pod bound, or (one in four) one deleted. */
  private static void churn(KafkaProducer<String, byte[]> producer, Topics topics, Map<String, PodSnapshot> live,
      Random random, int steps) throws InterruptedException {
    for (int i = 0; i < steps; i++) {
      List<PodSnapshot> pods = new ArrayList<>(live.values());
      if (!pods.isEmpty() && random.nextInt(4) == 0) {
        PodSnapshot gone = pods.get(random.nextInt(pods.size()));
        live.remove(gone.uid());
        send(producer, topics, new PodRemoved(gone.uid(), gone.namespace(), gone.name(), gone.node(), 0));
      } else {
        String node = NODES.get(random.nextInt(NODES.size()));
        long booked = pods.stream().filter(p -> p.node().equals(node)).mapToLong(PodSnapshot::effectiveRequestMilli).sum();
        long request = 100L * (5 + random.nextInt(20));
        if (booked + request <= 13_000) {
          PodSnapshot p = pod("team-a", "c" + System.nanoTime() % 1_000_000_000L, node, request, 0);
          live.put(p.uid(), p);
          send(producer, topics, p);
        }
      }
      Thread.sleep(100);
    }
  }

  private static void send(KafkaProducer<String, byte[]> producer, Topics topics, NodeEvent e) {
    producer.send(RealBrokerRecords.record(topics, e));
  }

  private static void await(String what, java.util.function.BooleanSupplier done, Duration bound, Path log)
      throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        String tail = Files.exists(log) ? String.join("\n", Files.readAllLines(log).stream()
            .filter(l -> l.contains("WARN") || l.contains("ERROR") || l.contains("->")).toList()) : "";
        throw new AssertionError(what + ": not within " + bound.toSeconds() + " s; the topology's log:\n" + tail);
      }
      Thread.sleep(100);
    }
  }

  /**
   * What the actuator does, as far as the topology sees it: reads the decisions read_committed,
   * sets each pod's limit, and answers with the pod's new snapshot and an {@code applied} outcome.
   */
  private static final class Actuator implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Set<String> decidedUids = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger applied = new java.util.concurrent.atomic.AtomicInteger();
    private final Thread thread;

    Actuator(KafkaBroker kafka, Topics topics, KafkaProducer<String, byte[]> producer, Map<String, PodSnapshot> live) {
      thread = new Thread(() -> {
        try (KafkaConsumer<String, NodeDecision> consumer = kafka.consumer(null, new StringDeserializer(),
            HeadroomSerdes.decisions().deserializer())) {
          List<TopicPartition> partitions = consumer.partitionsFor(topics.decisions()).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
          consumer.assign(partitions);
          consumer.seekToBeginning(partitions);
          while (running.get()) {
            for (ConsumerRecord<String, NodeDecision> r : consumer.poll(Duration.ofMillis(100))) {
              for (PodChange c : r.value().changes()) {
                decidedUids.add(c.uid());
                PodSnapshot pod = live.computeIfPresent(c.uid(), (uid, p) -> Fixtures.withLimit(p, c.targetMilli()));
                if (pod != null) {
                  send(producer, topics, pod);
                  send(producer, topics, new ResizeOutcome(pod.node(), pod.uid(), pod.namespace(), pod.name(),
                      OutcomeResult.APPLIED, c.targetMilli(), Instant.now(), null));
                  applied.incrementAndGet();
                }
              }
            }
          }
        }
      }, "actuator");
      thread.setDaemon(true);
      thread.start();
    }

    int applied() {
      return applied.get();
    }

    boolean decided(String uid) {
      return decidedUids.contains(uid);
    }

    @Override
    public void close() {
      running.set(false);
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
