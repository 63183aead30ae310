package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.topology.TopologyRunner;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Headroom scaled out ({@link ScaledPipeline}: three brokers at replication factor 3 and min ISR
 * 2; three topology instances, two actuators, two ingest) loses one topology instance and one
 * actuator to SIGKILL, and later one broker, while pods change on every node: every node is
 * still decided, nothing committed is decided twice, nothing is applied twice, and the final
 * limits are the policy's. The partitions a killed topology instance owned are decided by the
 * survivor from the state it restored from the changelogs: without it phase B1's limits differ.
 * The small run is in verify; the run at three topology instances and the figures' timings is
 * on demand ({@code -Pscale}).
 *
 * <p>Every node (16 cores, one per partition) goes through these phases:
 * A: a1, a2 (1 core each) → 8 cores each; B1 (the kills): + b1 (2 cores) → a 4, b1 8; B2 (the broker): + b2 (2 cores) →
 * a 2.67, b 5.33; C: b1 deleted → a 4, b2 8. Each phase's limits differ from the others' by more
 * than the deadband, so a lost decision shows in the limits.
 */
class ScaleOutFailoverTest {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleOutFailoverTest.class);
  private static final String NS = "team-s";
  private static final Duration CONVERGE = Duration.ofSeconds(150);
  /** One node per partition of the run's shape. */
  private List<String> nodes;

  /**
   * The small version, in verify: three brokers, two instances of each stage (ingest: one
   * leader); one kill of each. Four partitions and {@link ScaledPipeline.Timings#QUICK}.
   */
  @Test
  void aBrokerThenATopologyInstanceAndAnActuatorKilledMidStreamLoseAndRepeatNothing(@TempDir Path dir)
      throws Exception {
    play(dir, new ScaledPipeline.Shape(2, 2, 2, 0, 4, ScaledPipeline.Timings.QUICK));
  }

  // On demand (-Pscale) like the figures below: 110 s of verify on an idle 2-core machine put the
  // whole run past CI's 20 minutes (fresh-clone verify of 2026-12-02: 19m14s with it).
  @Tag("scale")
  @Test
  void threeTopologiesTwoActuatorsTwoIngestsAtTheFiguresTimings(@TempDir Path dir) throws Exception {
    play(dir, new ScaledPipeline.Shape(3, 2, 2, 0));
  }

  /**
   * The same run with and without a standby replica, for the failover figures of
   * docs/running-beside-kafka.md (on demand: {@code -Pscale}, see the demo pom).
   */
  @Tag("scale")
  @ParameterizedTest(name = "standbys {0}")
  @ValueSource(ints = {0, 1})
  void failoverFigures(int standbys, @TempDir Path dir) throws Exception {
    play(dir, new ScaledPipeline.Shape(3, 2, 2, standbys));
  }

  private void play(Path dir, ScaledPipeline.Shape shape) throws Exception {
    nodes = ScaledPipeline.nodePerPartition(shape.partitions());
    int half = nodes.size() / 2;
    long started = System.nanoTime();
    // Phase A's pods are there before the stages start, so they are decided while the groups
    // are still forming. (Before StartPositions, an actuator partition that moved before its
    // first commit skipped the decisions queued on it; the topology re-decided those pods at
    // their pending expiry, committing 5 of the three-instance run's decisions twice.)
    try (ScaledPipeline p = ScaledPipeline.start(dir, shape, api -> {
      namespaceAndNodes(api);
      nodes.forEach(n -> {
        pod(api, n, "a1", "1");
        pod(api, n, "a2", "1");
      });
    })) {
      LOG.info("FIGURE {} up in {} ms (load average {})", shape, millis(started), loadAverage());
      assertTheTopicsAreReplicated(p);
      awaitLimits(p, phase(8_000, 8_000, null, null));
      LOG.info("FIGURE phase A decided and applied {} ms after the start", millis(started));

      // one topology instance and one actuator killed mid-stream (first: a broker's loss moves the
      // group coordinator, and a rejoining member can come back owning nothing for minutes, the
      // tasks staying with the caught-up instance until Streams' probing rebalance)
      String pods = p.topics.pods();
      await("the forked topology instance owns partitions").atMost(CONVERGE).pollInterval(Duration.ofMillis(200))
          .until(() -> p.groupStable(TopologyRunner.Options.DEFAULT_APPLICATION_ID) && !p.victimPartitions(pods).isEmpty());
      Set<Integer> victimPartitions = p.victimPartitions(pods);
      nodes.subList(0, half).forEach(n -> pod(p.api, n, "b1", "2"));
      long killed = System.nanoTime();
      p.killTopologyInstance();
      p.killActuator();
      nodes.subList(half, nodes.size()).forEach(n -> pod(p.api, n, "b1", "2"));
      Map<String, Long> convergedAt = awaitLimitsPerNode(p, phase(4_000, 4_000, 8_000L, null), killed);
      LOG.info("FIGURE topology instance + actuator SIGKILLed (standbys {}, {}): nodes of the killed "
              + "instance's partitions {} converged after {} ms, the others after {} ms (load average {})",
          shape.standbys(), shape.timings().groups(), victimPartitions, maxOf(convergedAt, victimPartitions, shape.partitions(), true),
          maxOf(convergedAt, victimPartitions, shape.partitions(), false), loadAverage());

      // the partitions moved: the survivors own them all
      assertThat(p.assigned(TopologyRunner.Options.DEFAULT_APPLICATION_ID, pods)).hasSize(shape.partitions());
      assertThat(p.groupMembers(TopologyRunner.Options.DEFAULT_APPLICATION_ID)).isEqualTo(shape.topologies() - 1);
      String actuators = ActuatorSettings.defaultGroupId(p.topics);
      assertThat(p.assigned(actuators, p.topics.decisions())).hasSize(shape.partitions());
      assertThat(p.groupMembers(actuators)).isEqualTo(shape.actuators() - 1);

      // a broker lost mid-stream: half the b2 pods come before, half after
      nodes.subList(0, half).forEach(n -> pod(p.api, n, "b2", "2"));
      long brokerDown = System.nanoTime();
      p.kafka.stop(0);
      nodes.subList(half, nodes.size()).forEach(n -> pod(p.api, n, "b2", "2"));
      awaitLimits(p, phase(2_670, 2_670, 5_330L, 5_330L));
      LOG.info("FIGURE broker 1 of 3 down: every node decided and applied {} ms after the stop",
          millis(brokerDown));
      // it comes back while the last phase plays out (its start-up is seconds of waiting)
      long restart = System.nanoTime();
      CompletableFuture<Void> brokerBack = CompletableFuture.runAsync(() -> {
        p.kafka.restart(0);
        LOG.info("FIGURE broker 1 back in {} ms", millis(restart));
      }, runnable -> new Thread(runnable, "broker-restart").start());

      // and the pipeline keeps deciding on the restored state
      nodes.forEach(n -> p.api.seedClient().pods().inNamespace(NS).withName(n + "-b1").delete());
      Map<String, Long> phaseC = phase(4_000, 4_000, null, 8_000L);
      long lastPhase = System.nanoTime();
      awaitLimits(p, phaseC);
      LOG.info("FIGURE phase C decided and applied in {} ms", millis(lastPhase));
      await("limits stay put").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15))
          .until(() -> limits(p).equals(phaseC));
      brokerBack.get(CONVERGE.toSeconds(), TimeUnit.SECONDS);
      assertThat(p.kafka.running(0)).isTrue();

      List<ScaleLedger.Change> decided = ScaleLedger.decisions(p.kafka.bootstrapServers(), p.topics.decisions());
      var journal = p.api.requests().entries();
      LOG.info("FIGURE {} committed pod changes, {} accepted resizes", decided.size(), ScaleLedger.resizes(journal));
      assertThat(ScaleLedger.duplicateDecisions(decided)).as("decisions committed twice").isEmpty();
      assertThat(ScaleLedger.duplicateResizes(journal)).as("resizes applied twice").isEmpty();
      // and only the ingest holding the Lease published
      assertThat(p.ingestPublished()).as("records published per ingest instance")
          .hasSize(shape.ingests()).filteredOn(n -> n > 0).hasSize(1);
      // every pod's last committed decision is what it has: none lost between decision and API
      Map<String, Long> lastDecided = new TreeMap<>();
      decided.forEach(c -> lastDecided.put(c.pod(), c.targetMilli()));
      lastDecided.keySet().retainAll(phaseC.keySet());
      assertThat(lastDecided).isEqualTo(phaseC);
    }
    LOG.info("FIGURE whole run {} ms", millis(started));
  }

  private static String loadAverage() {
    return String.format("%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static void assertTheTopicsAreReplicated(ScaledPipeline p) throws Exception {
    try (Admin admin = p.kafka.admin()) {
      String changelog = admin.listTopics().names().get().stream().filter(t -> t.endsWith("-changelog"))
          .findFirst().orElseThrow();
      Map<String, TopicDescription> described =
          admin.describeTopics(List.of(p.topics.pods(), p.topics.decisions(), changelog)).allTopicNames().get();
      assertThat(described.values()).allSatisfy(t ->
          assertThat(t.partitions()).allSatisfy(part -> assertThat(part.replicas()).hasSize(3)));
      ConfigResource pods = new ConfigResource(ConfigResource.Type.TOPIC, p.topics.pods());
      ConfigResource log = new ConfigResource(ConfigResource.Type.TOPIC, changelog);
      var configs = admin.describeConfigs(List.of(pods, log)).all().get();
      assertThat(configs.get(pods).get("min.insync.replicas").value()).isEqualTo("2");
      assertThat(configs.get(log).get("min.insync.replicas").value()).isEqualTo("2");
    }
  }

  /** Expected limits of every node's pods (null: that pod does not exist in the phase). */
  private Map<String, Long> phase(long a1, long a2, Long b1, Long b2) {
    Map<String, Long> out = new TreeMap<>();
    for (String n : nodes) {
      out.put(NS + "/" + n + "-a1", a1);
      out.put(NS + "/" + n + "-a2", a2);
      if (b1 != null) {
        out.put(NS + "/" + n + "-b1", b1);
      }
      if (b2 != null) {
        out.put(NS + "/" + n + "-b2", b2);
      }
    }
    return out;
  }

  private void awaitLimits(ScaledPipeline p, Map<String, Long> expected) {
    await("limits " + expected).atMost(CONVERGE).pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(limits(p)).isEqualTo(expected));
  }

  /** As {@link #awaitLimits}, returning when (ms after {@code since}) each node's pods got there. */
  private Map<String, Long> awaitLimitsPerNode(ScaledPipeline p, Map<String, Long> expected, long since) {
    Map<String, Long> at = new TreeMap<>();
    await("limits " + expected).atMost(CONVERGE).pollInterval(Duration.ofMillis(100)).until(() -> {
      Map<String, Long> now = limits(p);
      for (String n : nodes) {
        if (!at.containsKey(n) && expected.entrySet().stream().filter(e -> e.getKey().startsWith(NS + "/" + n + "-"))
            .allMatch(e -> e.getValue().equals(now.get(e.getKey())))) {
          at.put(n, millis(since));
        }
      }
      return now.equals(expected);
    });
    return at;
  }

  private static long maxOf(Map<String, Long> convergedAt, Set<Integer> partitions, int of, boolean inside) {
    return convergedAt.entrySet().stream()
        .filter(e -> partitions.contains(ScaledPipeline.partitionOf(e.getKey(), of)) == inside)
        .mapToLong(Map.Entry::getValue).max().orElse(-1);
  }

  private static long millis(long sinceNanos) {
    return (System.nanoTime() - sinceNanos) / 1_000_000;
  }

  private void namespaceAndNodes(ApiServerDouble api) {
    api.seedClient().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build()).create();
    for (String n : nodes) {
      api.seedClient().nodes().resource(new NodeBuilder().withNewMetadata().withName(n)
          .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
          .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi")))
          .endStatus().build()).create();
    }
  }

  /** A Running Burstable pod {@code <node>-<name>} on {@code node}: one container, a CPU request, no limit. */
  private static void pod(ApiServerDouble api, String node, String name, String cpuRequest) {
    Pod pod = new PodBuilder()
        .withNewMetadata().withNamespace(NS).withName(node + "-" + name).endMetadata()
        .withNewSpec().withNodeName(node)
          .addNewContainer().withName("app").withImage("registry.example/app:1")
            .withResources(new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity(cpuRequest))
                .addToRequests("memory", new Quantity("256Mi")).build())
          .endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus()
        .build();
    api.seedClient().pods().inNamespace(NS).resource(pod).create();
  }

  /** Every pod's CPU limit in millicores ({@code ns/name}; 0 = none). */
  private static Map<String, Long> limits(ScaledPipeline p) {
    return p.api.pods().stream().collect(Collectors.toMap(
        pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
        ScaleOutFailoverTest::limitMilli, (x, y) -> x, TreeMap::new));
  }

  private static long limitMilli(Pod pod) {
    long sum = 0;
    for (Container c : pod.getSpec().getContainers()) {
      Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
      Quantity q = limits == null ? null : limits.get("cpu");
      sum += q == null ? 0 : CpuQuantity.tryParseMilli(q).orElse(0);
    }
    return sum;
  }
}
