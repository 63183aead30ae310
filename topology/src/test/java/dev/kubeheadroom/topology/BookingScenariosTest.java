package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.node;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenarios of docs/design/headroom-design.txt §5–§7 through the production topology. */
class BookingScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;
  final Map<String, PodSnapshot> live = new HashMap<>();

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
    h.send(node16());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private void add(PodSnapshot pod) {
    live.put(pod.uid(), pod);
    h.send(pod);
  }

  private static Map<String, Long> targets(NodeDecision d) {
    Map<String, Long> m = new HashMap<>();
    for (PodChange c : d.changes()) {
      m.put(c.name(), c.targetMilli());
    }
    return m;
  }

  @Test
  void aLoneManagedPodOnAnEmptyNodeClimbsToAllocatable() {
    // §5.1: on an empty node the ceiling approaches the node (2000m × 10 cap > 16 cores).
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    assertThat(ds.get(0).changes()).singleElement().satisfies(c -> {
      assertThat(c.targetMilli()).isEqualTo(16000);
      assertThat(c.reason()).isEqualTo("set");
    });
    assertThat(ds.get(0).stats().slackMilli()).isEqualTo(14000);
    assertThat(ds.get(0).dryRun()).isFalse();
  }

  @Test
  void anIncumbentShrinksOnlyAfterTheDebounceWhenANeighbourBooksSlack() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.settle();
    assertThat(h.decisions()).as("the applied limit is confirmed: nothing more").isEmpty();

    add(pod("team-a", "batch-1", "n1", 8000, 0));
    h.advance(Duration.ofMillis(1500));
    assertThat(h.decisions()).as("still inside the 2 s debounce").isEmpty();
    h.advance(Duration.ofMillis(1100));
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    // slack 6000, M 10000: web-1 2000 + 1200 = 3200 (shrink), batch-1 8000 + 4800 = 12800 (set).
    assertThat(targets(ds.get(0))).containsEntry("web-1", 3200L).containsEntry("batch-1", 12800L);
  }

  @Test
  void aRolloutBurstOfTenPodsIsComputedOnce() {
    for (int i = 0; i < 10; i++) {
      add(pod("team-a", "r-" + i, "n1", 500, 0));
      h.advance(Duration.ofMillis(100));
    }
    h.settle();
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    assertThat(ds.get(0).changes()).hasSize(10);
  }

  @Test
  void constantChurnStillFlushesWithinTheMaxDebounceDelay() {
    for (int i = 0; i < 60; i++) { // an event every 500 ms for 30 s: never 2 s quiet
      add(pod("team-a", "churn-" + i, "n1", 10, 0));
      h.advance(Duration.ofMillis(500));
    }
    assertThat(h.decisions().size()).as("flushed every ~10 s despite churn").isBetween(2, 4);
  }

  @Test
  void aBacklogReadAfterDowntimeIsDecidedOnceItWentQuietNotAtEveryTick() {
    // Records written five minutes ago, read now at 5 per second: their times say "quiet for
    // minutes", yet the node is still changing as the topology reads them.
    java.time.Instant written = h.now.minus(Duration.ofMinutes(5));
    for (int i = 0; i < 20; i++) {
      PodSnapshot pod = pod("team-a", "late-" + i, "n1", 100, 0);
      live.put(pod.uid(), pod);
      h.sendAt(pod, written.plusMillis(100L * i));
      h.advance(Duration.ofMillis(200));
    }
    assertThat(h.decisions()).as("4 s of reading, never 2 s quiet, under the 10 s max delay").isEmpty();
    h.settle();
    assertThat(h.decisions()).singleElement().satisfies(d -> assertThat(d.changes()).hasSize(20));
  }

  @Test
  void anOvercommittedNodeHoldsManagedLimitsAtTheirRequests() {
    h.send(node("n1", 4000));
    h.namespace(Fixtures.ns("other", null));
    add(pod("other", "hog", "n1", 3000, 0));
    add(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsExactly(Map.entry("web-1", 2000L));
  }

  @Test
  void aNamespaceThatOptsInLaterIsPickedUpWithoutAnyPodEvent() {
    h.namespace(Fixtures.ns("team-b", null));
    add(pod("team-b", "api-1", "n1", 1000, 0));
    h.settle();
    assertThat(h.decisions()).isEmpty();

    h.namespace(managedNs("team-b"));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsKey("api-1");
  }

  @Test
  void aConfigChangeReEvaluatesNodesSpreadOverOneDebounceNotInOneBurst() {
    // §8.6 "add jittered initial sync": the same holds after a restart (same code path).
    for (int i = 0; i < 20; i++) {
      h.send(node("m" + i, 16000));
      add(pod("team-a", "app-" + i, "m" + i, 2000, 0));
    }
    h.settle();
    h.applyAll(h.decisions(), live);
    h.settle();
    assertThat(h.decisions()).as("settled").isEmpty();

    h.config(new ClusterConfig(7, "Proportional", false, 1000, 2, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, null, List.of()));
    Map<String, Integer> tickOfNode = new HashMap<>();
    for (int tick = 1; tick <= 21; tick++) {
      h.advance(Duration.ofMillis(100));
      for (NodeDecision d : h.decisions()) {
        tickOfNode.put(d.node(), tick);
      }
    }
    assertThat(tickOfNode).as("every node re-evaluated within the debounce").hasSize(20); // n1 has no pods
    assertThat(new java.util.HashSet<>(tickOfNode.values())).as("over many ticks, not one").hasSizeGreaterThan(8);
    // seen at tick 1, due at tick 1 + its spread, decided at the first tick from then
    long spread = Debouncer.spread("m3", Duration.ofSeconds(2)).toNanos();
    long tickNanos = Duration.ofMillis(100).toNanos();
    assertThat(tickOfNode.get("m3")).as("a node's point is a function of its name")
        .isEqualTo(1 + (int) ((spread + tickNanos - 1) / tickNanos));
  }

  @Test
  void aBogusModeLabelValueManagesNothing() {
    h.namespace(Fixtures.ns("team-c", "true"));
    add(pod("team-c", "api-1", "n1", 1000, 0));
    h.settle();
    assertThat(h.decisions()).isEmpty();
  }

  @Test
  void aConfigChangeReEvaluatesEveryNode() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.settle();
    h.config(new ClusterConfig(7, "Proportional", false, 1000, 2, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, null, List.of()));
    h.settle();
    NodeDecision d = h.decisions().get(0);
    assertThat(targets(d)).containsExactly(Map.entry("web-1", 4000L));
    assertThat(d.configGeneration()).isEqualTo(7);
  }

  @Test
  void aRequestChangedByAnotherActorRecomputesTheNode() {
    add(pod("team-a", "web-1", "n1", 1000, 0));
    add(pod("team-a", "web-2", "n1", 1000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.settle();
    // VPA (RequestsOnly) raises web-2's request: slack shrinks, web-1 shrinks.
    PodSnapshot raised = Fixtures.withRequest(live.get("uid-web-2"), 6000);
    add(raised);
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsKey("web-1");
  }

  @Test
  void anAllocatableShrinkShrinksLimits() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.send(node("n1", 8000));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsExactly(Map.entry("web-1", 8000L));
  }

  @Test
  void infeasibleAndQuotaDeniedOutcomesBackOffThenRetry() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    NodeDecision first = h.decisions().get(0);
    h.send(new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1", OutcomeResult.QUOTA_DENIED,
        first.changes().get(0).targetMilli(), h.now, "exceeded quota"));
    h.advance(Duration.ofSeconds(30));
    assertThat(h.decisions()).as("in backoff: no retry").isEmpty();
    h.advance(Duration.ofSeconds(31));
    assertThat(h.decisions()).as("backoff over: retried once").singleElement()
        .satisfies(d -> assertThat(targets(d)).containsExactly(Map.entry("web-1", 16000L)));
  }

  @Test
  void aRejectedTargetBacksThePodOffInsteadOfBeingResentAtOnce() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    NodeDecision first = h.decisions().get(0);
    h.send(new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1", OutcomeResult.REJECTED,
        first.changes().get(0).targetMilli(), h.now, "namespace team-a is not managed"));
    h.advance(Duration.ofSeconds(30));
    assertThat(h.decisions()).as("in backoff: not re-sent every debounce").isEmpty();
    h.advance(Duration.ofSeconds(31));
    assertThat(h.decisions()).as("backoff over: retried once").hasSize(1);
  }

  @Test
  void anInFlightTargetIsNeverSentTwice() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    assertThat(h.decisions()).hasSize(1);
    // The patch is in flight (no confirming snapshot yet); an unrelated change recomputes the node.
    h.send(new dev.kubeheadroom.schemas.NodeSnapshot("n1", 16000, "linux", false, Map.of("zone", "b")));
    h.settle();
    assertThat(h.decisions()).isEmpty();
  }

  @Test
  void atRestNothingIsDecided() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    add(pod("team-a", "web-2", "n1", 3000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.advance(Duration.ofMinutes(5));
    assertThat(h.decisions()).isEmpty();
  }

  @Test
  void terminalAndDeletedPodsLeaveEverySum() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    add(pod("team-a", "job-1", "n1", 8000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.send(Fixtures.phase(live.get("uid-job-1"), "Succeeded"));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsExactly(Map.entry("web-1", 16000L));
    h.applyAll(List.of(), live);
  }

  @Test
  void aNodeSyncDropsPodsDeletedWhileIngestWasDown() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    add(pod("team-a", "ghost", "n1", 8000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.send(new NodeSync("n1", List.of("uid-web-1")));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsExactly(Map.entry("web-1", 16000L));
  }

  @Test
  void dryRunDecidesOnceAndEnforcementReEmits() {
    h.config(ClusterConfig.DEFAULTS);
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    assertThat(h.decisions()).singleElement().satisfies(d -> assertThat(d.dryRun()).isTrue());
    h.advance(Duration.ofMinutes(2));
    assertThat(h.decisions()).as("dry-run targets are remembered, not re-sent").isEmpty();
    h.config(enforcing());
    h.settle();
    assertThat(h.decisions()).singleElement().satisfies(d -> assertThat(d.dryRun()).isFalse());
  }

  @Test
  void anUnreadableRecordGoesToTheDeadLetterTopicAndTheNodeGoesOn() {
    h.sendRaw(h.topics.pods(), "n1", "{this is not json");
    add(pod("team-a", "web-1", "n1", 2000, 0));
    h.settle();
    assertThat(h.deadLetters()).singleElement().satisfies(dl -> {
      assertThat(dl.topic()).isEqualTo(h.topics.pods());
      assertThat(dl.reason()).startsWith("NodeEvent:");
      assertThat(dl.payload()).isEqualTo("{this is not json");
    });
    assertThat(h.decisions()).hasSize(1);
  }

  @Test
  void aRemovedPodFreesItsSlack() {
    add(pod("team-a", "web-1", "n1", 2000, 0));
    add(pod("team-a", "web-2", "n1", 6000, 0));
    h.settle();
    h.applyAll(h.decisions(), live);
    h.send(new PodRemoved("uid-web-2", "team-a", "web-2", "n1"));
    h.settle();
    assertThat(targets(h.decisions().get(0))).containsExactly(Map.entry("web-1", 16000L));
  }
}
