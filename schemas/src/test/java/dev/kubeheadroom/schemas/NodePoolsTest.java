package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Per-node-pool config (docs/design/headroom-design.txt §11.4): first match wins, the rest take the defaults. */
class NodePoolsTest {
  private static final LabelSelector BATCH = new LabelSelector(Map.of("pool", "batch"), List.of());
  private static final LabelSelector ANY_POOL = new LabelSelector(Map.of(),
      List.of(new LabelSelector.Requirement("pool", "Exists", List.of())));

  @Property(tries = 300)
  void theFirstMatchingPoolAppliesAndAnUnmatchedNodeTakesTheClusterDefaults(
      @ForAll("selectors") List<LabelSelector> selectors, @ForAll("labels") Map<String, String> labels) {
    // given pools p0..pn in order
    List<NodePool> pools = new ArrayList<>();
    for (int i = 0; i < selectors.size(); i++) {
      pools.add(NodePool.named("p" + i, selectors.get(i)).withMaxMultiplier((double) i));
    }
    ClusterConfig config = ClusterConfig.DEFAULTS.withPools(pools);
    // when
    var pool = config.poolFor(labels);
    // then it is the lowest-indexed match, and its knobs apply; no match: the defaults themselves
    int first = -1;
    for (int i = 0; i < selectors.size() && first < 0; i++) {
      if (selectors.get(i).matches(labels)) {
        first = i;
      }
    }
    if (first < 0) {
      assertThat(pool).isEmpty();
      assertThat(config.forPool(pool.orElse(null))).isSameAs(config);
    } else {
      assertThat(pool).map(NodePool::name).contains("p" + first);
      assertThat(config.forPool(pool.get()).maxMultiplier()).isEqualTo(first);
    }
  }

  @Test
  void aPoolOverridesOnlyTheKnobsItSets() {
    // given a batch pool that lifts the cap and a latency pool that changes the deadbands and debounce
    NodePool batch = NodePool.named("batch", BATCH).withMaxMultiplier(0.0);
    NodePool latency = NodePool.named("latency", ANY_POOL).withDeadbands(20, null)
        .withDebounce(Duration.ofMillis(500), null);
    ClusterConfig config = ClusterConfig.DEFAULTS.withPools(List.of(batch, latency));
    // when / then
    ClusterConfig onBatch = config.forPool(config.poolFor(Map.of("pool", "batch")).orElseThrow());
    assertThat(onBatch.maxMultiplier()).isZero(); // unlimited
    assertThat(onBatch.toPolicyConfig()).isEqualTo(ClusterConfig.DEFAULTS.toPolicyConfig().withMaxMultiplier(0));
    ClusterConfig onLatency = config.forPool(config.poolFor(Map.of("pool", "gpu")).orElseThrow());
    assertThat(onLatency.deadbandGrowPercent()).isEqualTo(20);
    assertThat(onLatency.deadbandShrinkPercent()).isEqualTo(5);
    assertThat(onLatency.debouncePeriod()).isEqualTo(Duration.ofMillis(500));
    assertThat(onLatency.maxDebounceDelay()).isEqualTo(Duration.ofSeconds(10));
    assertThat(onLatency.maxMultiplier()).isEqualTo(10.0);
  }

  @Test
  void poolsWithTheSameNameOrADebounceLongerThanTheirMaxDelayAreRefused() {
    assertThatThrownBy(() -> ClusterConfig.DEFAULTS.withPools(
        List.of(NodePool.named("a", BATCH), NodePool.named("a", ANY_POOL))))
        .hasMessageContaining("the name a is used twice");
    assertThatThrownBy(() -> ClusterConfig.DEFAULTS.withPools(
        List.of(NodePool.named("slow", BATCH).withDebounce(Duration.ofSeconds(30), null))))
        .hasMessageContaining("pools[slow]: maxDebounceDelay must be >= debouncePeriod");
    assertThatThrownBy(() -> NodePool.named("x", LabelSelector.NONE))
        .hasMessageContaining("pools[x].nodeSelector must not be empty");
  }

  @Test
  void speedingUpDividesThePoolsTimesToo() {
    ClusterConfig config = ClusterConfig.DEFAULTS.withPools(List.of(
        NodePool.named("latency", BATCH).withDebounce(Duration.ofSeconds(1), Duration.ofSeconds(4))));
    NodePool fast = config.speedUp(4).pools().get(0);
    assertThat(fast.debouncePeriod()).isEqualTo(Duration.ofMillis(250));
    assertThat(fast.maxDebounceDelay()).isEqualTo(Duration.ofSeconds(1));
  }

  @Provide
  Arbitrary<List<LabelSelector>> selectors() {
    Arbitrary<LabelSelector> byLabel = Arbitraries.of("a", "b", "c").flatMap(k ->
        Arbitraries.of("1", "2").map(v -> new LabelSelector(Map.of(k, v), List.of())));
    Arbitrary<LabelSelector> byExpression = Arbitraries.of("a", "b", "c").flatMap(k ->
        Arbitraries.of("Exists", "DoesNotExist").map(op ->
            new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement(k, op, List.of())))));
    return Arbitraries.oneOf(byLabel, byExpression).list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<Map<String, String>> labels() {
    return Arbitraries.maps(Arbitraries.of("a", "b", "c"), Arbitraries.of("1", "2")).ofMaxSize(3);
  }
}
