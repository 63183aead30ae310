package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-node-pool policy (docs/design/headroom-design.txt §11.4) through the production topology. */
class PoolScenariosTest {
  private static final NodePool BATCH =
      NodePool.named("batch", new LabelSelector(Map.of("pool", "batch"), List.of())).withMaxMultiplier(0.0);
  private static final NodePool LATENCY =
      NodePool.named("latency", new LabelSelector(Map.of("pool", "latency"), List.of()))
          .withMaxMultiplier(2.0).withDebounce(Duration.ofMillis(200), Duration.ofSeconds(1));
  private static final ClusterConfig POOLED = enforcing().withPools(List.of(BATCH, LATENCY));

  @TempDir Path stateDir;
  TopologyHarness h;
  final Map<String, PodSnapshot> live = new HashMap<>();

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(POOLED);
    h.namespace(Fixtures.managedNs("team-a"));
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private static NodeSnapshot node(String name, String pool) {
    return new NodeSnapshot(name, 16_000, "linux", false, pool == null ? Map.of() : Map.of("pool", pool));
  }

  private void pod(String name, String node, long request) {
    PodSnapshot pod = Fixtures.pod("team-a", name, node, request, 0);
    live.put(pod.uid(), pod);
    h.send(pod);
  }

  private static Map<String, Long> targets(List<NodeDecision> ds) {
    return ds.stream().flatMap(d -> d.changes().stream())
        .collect(Collectors.toMap(c -> c.name(), c -> c.targetMilli(), (a, b) -> b));
  }

  private static Map<String, String> pools(List<NodeDecision> ds) {
    return ds.stream().collect(Collectors.toMap(NodeDecision::node, d -> String.valueOf(d.pool()), (a, b) -> b));
  }

  @Test
  void aBatchPoolLiftsTheCapWhileNodesInNoPoolKeepTheClusterDefaults() {
    // given a batch node and a node in no pool, each with one 1-core pod on 16 cores
    h.send(node("n1", "batch"));
    h.send(node("n2", null));
    pod("on-batch", "n1", 1_000);
    pod("on-plain", "n2", 1_000);
    // when
    h.settle();
    List<NodeDecision> ds = h.decisions();
    // then the batch pod takes the whole node (no multiplier cap), the other stops at 10×;
    // each decision names the pool whose knobs it used (none for the cluster defaults)
    assertThat(targets(ds)).containsEntry("on-batch", 16_000L).containsEntry("on-plain", 10_000L);
    assertThat(pools(ds)).containsEntry("n1", "batch").containsEntry("n2", "null");
    assertThat(ds.stream().filter(d -> d.node().equals("n1")).findFirst().orElseThrow().config().maxMultiplier())
        .isZero();
  }

  @Test
  void aNodeChangingLabelsMovesPoolsAtItsNextDecision() {
    // given a node in no pool whose pod got the default 10× cap, applied
    h.send(node("n1", null));
    pod("web", "n1", 1_000);
    h.settle();
    h.applyAll(h.decisions(), live);
    h.settle();
    assertThat(h.decisions()).isEmpty();
    // when the node is relabelled into the latency pool (2× cap)
    h.send(node("n1", "latency"));
    h.settle();
    // then its next decision shrinks the pod to 2× under the latency pool
    List<NodeDecision> ds = h.decisions();
    assertThat(targets(ds)).containsExactly(Map.entry("web", 2_000L));
    assertThat(ds.get(0).pool()).isEqualTo("latency");
    // and when it is relabelled out of every pool, the cluster defaults apply again
    h.applyAll(ds, live);
    h.send(node("n1", "other"));
    h.settle();
    ds = h.decisions();
    assertThat(targets(ds)).containsExactly(Map.entry("web", 10_000L));
    assertThat(ds.get(0).pool()).isNull();
  }

  @Test
  void aPoolsOwnDebounceDecidesItsNodesSooner() {
    // given a latency node (200 ms debounce) and a node in no pool (2 s)
    h.send(node("n1", "latency"));
    h.send(node("n2", null));
    pod("fast", "n1", 1_000);
    pod("slow", "n2", 1_000);
    // when 500 ms pass
    for (int i = 0; i < 5; i++) {
      h.advance(Duration.ofMillis(100));
    }
    // then only the latency node was decided
    assertThat(targets(h.decisions())).containsOnlyKeys("fast");
    // and the other at its own debounce
    h.settle();
    assertThat(targets(h.decisions())).containsOnlyKeys("slow");
  }
}
