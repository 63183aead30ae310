package dev.kubeheadroom.replay;

import static dev.kubeheadroom.replay.ArrivalOrder.node;
import static dev.kubeheadroom.replay.ArrivalOrder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.MemoryTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events of one node on two topics that do not commute, read by the live task against their
 * record-time order: a refusal of pod a (minute 4) is read before n1's new allocatable (minute 3),
 * which ends the refusal episode (a new allocatable can change every target), so the live
 * task's minute-10 checkpoint holds no refusal; folded by record time, the refusal comes after
 * the change and stays counted. The cut alone cannot tell the two apart (every record is below
 * it); the read order each checkpoint carries ({@code
 * NodeCheckpoint.order}) can: {@code audit --verify} folds the node's records in it, and a read
 * order is no longer reported as a divergence, while a booking the log does not give still is.
 */
class CheckpointReadOrderTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Topics TOPICS = Topics.defaults();
  /** The live task's checkpoints by key, and the log its arrivals left. */
  private final Map<String, NodeCheckpoint> live = new LinkedHashMap<>();
  private final MemoryTopics log;

  /** The outcomes partition's fetch of minute 4 arrives before the nodes' of minute 3. */
  CheckpointReadOrderTest(@TempDir Path stateDir) {
    log = ArrivalOrder.run(TOPICS, stateDir, "read-order", T0, List.of(
        new ArrivalOrder.Arrival(TOPICS.nodes(), node(8_000), 1),
        new ArrivalOrder.Arrival(TOPICS.pods(), pod("a", 200), 2),
        new ArrivalOrder.Arrival(TOPICS.outcomes(), new ResizeOutcome("n1", "uid-a", "team-a", "a",
            OutcomeResult.CONFLICT, 2_000, T0.plus(Duration.ofMinutes(4)), "the pod changed"), 4),
        new ArrivalOrder.Arrival(TOPICS.nodes(), node(12_000), 3),
        new ArrivalOrder.Arrival(TOPICS.pods(), pod("c", 400), 11),
        new ArrivalOrder.Arrival(TOPICS.pods(), pod("d", 100), 21)), c -> live.put(c.key(), c));
  }

  @Test
  void theLiveCheckpointCarriesTheNodesReadOrderSinceTheLastBoundary() {
    NodeCheckpoint at10 = live.get(key(10));
    assertThat(at10.pods()).singleElement().satisfies(p -> assertThat(p.refusals()).isZero());
    assertThat(at10.order()).containsExactly(new Run(TOPICS.nodes(), 1), new Run(TOPICS.pods(), 1),
        new Run(TOPICS.outcomes(), 1), new Run(TOPICS.nodes(), 1));
    // by record time alone (the cut, no order), the refusal outlives the change: not the live booking
    Map<String, NodeCheckpoint> byCut = derive(boundaries(false));
    assertThat(byCut.get(key(10)).pods()).singleElement().satisfies(p -> assertThat(p.refusals()).isOne());
  }

  @Test
  void foldedInTheRecordedReadOrderTheCheckpointIsTheLiveOneByteForByte() {
    Map<String, NodeCheckpoint> derived = derive(boundaries(true));
    assertThat(CheckpointCodec.encode(derived.get(key(10)))).isEqualTo(CheckpointCodec.encode(live.get(key(10))));
  }

  @Test
  void aBookingTheLogDoesNotGiveStillDiffers() {
    NodeCheckpoint stored = live.get(key(10));
    CheckpointPod b = stored.pods().get(0);
    NodeCheckpoint tampered = new NodeCheckpoint(stored.node(), stored.at(), stored.snapshot(),
        List.of(new CheckpointPod(b.pod(), b.backoffSince(), b.infeasibleSeen(), b.refusals() + 1)), stored.cut(),
        stored.order());
    Map<String, NodeCheckpoint> derived = derive(boundaries(true));
    assertThat(CheckpointCodec.encode(derived.get(key(10)))).isNotEqualTo(CheckpointCodec.encode(tampered));
  }

  @Test
  void withoutARecordedOrderAnIntervalOfSeveralTopicsIsFlaggedAndOneOfOneTopicIsNot() {
    Map<String, Boolean> unknown = new HashMap<>();
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(TOPICS), Duration.ofSeconds(5))) {
      CheckpointDerivation.deriveAt(history, TOPICS, T0.plus(Duration.ofHours(1)), boundaries(false),
          (c, orderUnknown) -> unknown.put(c.key(), orderUnknown), () -> { });
    }
    // minute 10: nodes, pods and outcomes read in an order not recorded; minute 20: pod c alone
    assertThat(unknown).containsEntry(key(10), true).containsEntry(key(20), false);
    Map<String, Boolean> recorded = new HashMap<>();
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(TOPICS), Duration.ofSeconds(5))) {
      CheckpointDerivation.deriveAt(history, TOPICS, T0.plus(Duration.ofHours(1)), boundaries(true),
          (c, orderUnknown) -> recorded.put(c.key(), orderUnknown), () -> { });
    }
    assertThat(recorded).containsEntry(key(10), false).containsEntry(key(20), false);
  }

  /** The stored boundaries as {@code audit --verify} reads them: each cut, with the read orders or without. */
  private Map<Instant, CheckpointDerivation.Boundary> boundaries(boolean withOrders) {
    Map<Instant, CheckpointDerivation.Boundary> out = new HashMap<>();
    for (NodeCheckpoint c : live.values()) {
      out.put(c.at(), new CheckpointDerivation.Boundary(c.cut(),
          withOrders ? Map.of(c.node(), c.order()) : Map.of()));
    }
    return out;
  }

  private Map<String, NodeCheckpoint> derive(Map<Instant, CheckpointDerivation.Boundary> boundaries) {
    return ArrivalOrder.derive(log, TOPICS, T0.plus(Duration.ofHours(1)), boundaries);
  }

  private static String key(int minute) {
    return NodeCheckpoint.key("n1", T0.plus(Duration.ofMinutes(minute)));
  }
}
