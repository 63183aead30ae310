package dev.kubeheadroom.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.CheckpointDerivation;
import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.MemoryTopics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link CheckpointFold} (the bench's setup) writes the checkpoints {@link CheckpointDerivation}
 * writes, byte for byte, partition by partition as the bench derives them; and it refuses the
 * logs where deciding changes them, which the outcome test shows exist. On demand, as the bench
 * is (3.7 s on a quiet machine, 40 s at load 30: {@code mvn verify} has no room for it):
 *
 * <pre>
 * mvn -B -pl tooling/bench -am test -Dbench.smoke=true -Dtest=CheckpointFoldTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@EnabledIfSystemProperty(named = "bench.smoke", matches = "true")
class CheckpointFoldTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final Topics topics = Topics.defaults();
  private static final int PARTITIONS = 6;

  @Test
  void theBenchsLogGivesTheFullDerivationsCheckpoints() {
    MemoryTopics log = memoryTopics();
    AuditBench.history((topic, key, value, at) -> log.add(topic, key, JsonCodec.encode(value), at),
        topics, 6_000, 40, T0, Duration.ofHours(2));

    long total = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      List<String> full = full(log, p);
      List<String> fold = fold(log, p);
      assertThat(fold).as("partition %d", p).isEqualTo(full);
      total += full.size();
      // the cut is compared too: every checkpoint past the first boundary names the partitions read
      int partition = p;
      assertThat(full).allSatisfy(h -> assertThat(CheckpointCodec.decode(HexFormat.of().parseHex(h)).cut())
          .extracting(NodeCheckpoint.Position::partition).isNotEmpty().containsOnly(partition));
    }
    // 12 boundaries of 40 nodes: not an empty comparison
    assertThat(total).isGreaterThan(400);
  }

  /** What the decoder skips (unreadable, no key, wrong key) and the epoch fence drops. */
  @Test
  void skippedAndFencedRecordsAreSkippedAlike() {
    MemoryTopics log = memoryTopics();
    log.add(topics.nodes(), "n1", JsonCodec.encode(node("n1", 8_000).withEpoch(2)), T0.plusSeconds(1));
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "a", 200, 400).withEpoch(2)), T0.plusSeconds(2));
    // a stale leader's record: fenced
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "b", 300, 600).withEpoch(1)), T0.plusSeconds(3));
    log.add(topics.pods(), "n1", "{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8), T0.plusSeconds(4));
    log.add(topics.pods(), "n2", JsonCodec.encode(pod("n1", "c", 300, 600)), T0.plusSeconds(5));
    log.add(topics.pods(), null, JsonCodec.encode(pod("n1", "d", 300, 600)), T0.plusSeconds(6));
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "e", 100, 200)), T0.plusSeconds(7));
    for (String name : List.of("n1", "n2")) { // each node's partition past two boundaries
      log.add(topics.nodes(), name, JsonCodec.encode(node(name, 4_000)), T0.plusSeconds(650));
      log.add(topics.nodes(), name, JsonCodec.encode(node(name, 4_000)), T0.plusSeconds(1_250));
    }

    List<String> full = new ArrayList<>();
    List<String> fold = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      full.addAll(full(log, p));
      fold.addAll(fold(log, p));
    }
    assertThat(fold).isEqualTo(full);
    List<NodeCheckpoint> n1 = full.stream().map(h -> CheckpointCodec.decode(HexFormat.of().parseHex(h)))
        .filter(c -> c.node().equals("n1")).toList();
    assertThat(n1).hasSize(2);
    assertThat(n1.get(0).pods()).extracting(c -> c.pod().name()).containsExactly("a", "e");
  }

  /**
   * What deciding does to a checkpoint, checked: a decision sets a pending target, and a snapshot
   * that confirms it ends the pod's refusal episode ({@code NodeBooking.applyPod}). On the plain
   * retry (refused, decided again after the backoff, the new limit confirmed) the confirming
   * snapshot also changes the pod's limits, which ends the episode by itself: the full derivation
   * and folding without deciding agree here. They can differ when a decision reverses an
   * in-flight target back to the pod's current limits (a pending target equal to the spec, which
   * a status-only snapshot then confirms): so the fold refuses every log with outcomes.
   */
  @Test
  void aConfirmedRetryEndsTheEpisodeByItsNewLimitsAndTheFoldRefusesOutcomes() {
    // first the log up to the retry, to learn the target the topology decides for the pod
    MemoryTopics log = memoryTopics();
    log.add(topics.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)), T0);
    log.add(topics.namespaces(), "team-a", JsonCodec.encode(
        new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)), T0);
    log.add(topics.nodes(), "n1", JsonCodec.encode(node("n1", 8_000)), T0.plusSeconds(1));
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "a", 200, 400)), T0.plusSeconds(2));
    log.add(topics.outcomes(), "n1", JsonCodec.encode(new ResizeOutcome("n1", "uid-a", "team-a", "a",
        OutcomeResult.REJECTED, 0, T0.plusSeconds(90), "refused")), T0.plusSeconds(90));
    for (int minute = 3; minute <= 5; minute++) { // moves the clock past the backoff
      log.add(topics.nodes(), "n2", JsonCodec.encode(node("n2", 4_000)), T0.plusSeconds(60L * minute));
    }
    List<Decided> decided = decided(log, "uid-a");
    assertThat(decided).as("decided again after the refusal's backoff")
        .anySatisfy(d -> assertThat(d.at()).isAfter(T0.plusSeconds(90)));
    long target = decided.get(decided.size() - 1).targetMilli();

    // the snapshot that confirms the second target, then a record past the 10-minute boundary
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "a", 200, target)), T0.plusSeconds(330));
    log.add(topics.nodes(), "n1", JsonCodec.encode(node("n1", 8_000)), T0.plusSeconds(660)); // unchanged

    int p = log.partition(topics.pods(), "n1");
    NodeCheckpoint full = full(log, p).stream().map(h -> CheckpointCodec.decode(HexFormat.of().parseHex(h)))
        .filter(c -> c.node().equals("n1")).findFirst().orElseThrow();
    assertThat(full.pods()).singleElement().satisfies(c -> {
      assertThat(c.refusals()).as("the confirmed target ended the episode").isZero();
      assertThat(c.backoffSince()).isNull();
    });
    // before the confirming snapshot the episode was running: the outcome was folded
    NodeBooking folded = NodeBooking.empty("n1");
    NodeBooking beforeConfirm = null;
    for (MemoryTopics.Added r : log.records()) {
      if (r.key() != null && r.key().equals("n1") && r.at().isBefore(full.at())) {
        if (r.at().equals(T0.plusSeconds(330))) {
          beforeConfirm = folded;
        }
        folded = folded.apply(JsonCodec.decode(r.value(), NodeEvent.class), r.at()).booking();
      }
    }
    assertThat(beforeConfirm.pods().get("uid-a").refusals()).isEqualTo(1);
    // folding the same events without deciding: the same checkpoint, byte for byte (the cut and
    // the read order are how the log was read, not part of the booking: carried over)
    assertThat(CheckpointCodec.encode(Checkpoints.of(folded, full.at()).withCut(full.cut()).withOrder(full.order())))
        .isEqualTo(CheckpointCodec.encode(full));
    assertThatThrownBy(() -> fold(log, p)).isInstanceOf(CheckpointFold.Refused.class);
  }

  /**
   * The case the fold refuses outcomes for, shown: a pod refused, decided again after its
   * backoff (a target in flight), then its node fills up and the next decision reverses the
   * target to the limit the pod already has; a status-only snapshot confirms that pending target
   * and ends the refusal episode. Folding the same events without deciding keeps the episode
   * (refusals 1): deciding enters the checkpoint here, so CheckpointFold cannot stand in for the
   * derivation on a log with outcomes.
   */
  @Test
  void aDecisionReversingAnInFlightTargetEndsTheEpisodeAFoldKeeps() {
    long limit = reversedTarget(400);
    MemoryTopics log = reversal(limit, true);
    log.add(topics.nodes(), "n1", JsonCodec.encode(node("n1", 8_000)), T0.plusSeconds(660)); // past the boundary
    List<Decided> decided = decided(log, "uid-a");
    assertThat(decided).as("a target in flight, then reversed to the pod's own limit").hasSizeGreaterThanOrEqualTo(2);
    assertThat(decided.get(decided.size() - 2).targetMilli()).isNotEqualTo(limit);
    assertThat(decided.get(decided.size() - 1).targetMilli()).isEqualTo(limit);

    int p = log.partition(topics.pods(), "n1");
    NodeCheckpoint full = full(log, p).stream().map(h -> CheckpointCodec.decode(HexFormat.of().parseHex(h)))
        .filter(c -> c.node().equals("n1")).findFirst().orElseThrow();
    assertThat(full.pods()).filteredOn(c -> c.pod().name().equals("a")).singleElement()
        .satisfies(c -> assertThat(c.refusals()).as("the confirmed reversal ended the episode").isZero());
    NodeBooking folded = NodeBooking.empty("n1");
    for (MemoryTopics.Added r : log.records()) {
      if ("n1".equals(r.key()) && r.at().isBefore(full.at())) {
        folded = folded.apply(JsonCodec.decode(r.value(), NodeEvent.class), r.at()).booking();
      }
    }
    assertThat(folded.pods().get("uid-a").refusals()).as("folding alone keeps the episode").isEqualTo(1);
    assertThatThrownBy(() -> fold(log, p)).isInstanceOf(CheckpointFold.Refused.class);
  }

  /** The target the topology reverses pod a to once pod b fills its node (a's own limit must equal it). */
  private long reversedTarget(long limit) {
    List<Decided> decided = decided(reversal(limit, false), "uid-a");
    return decided.get(decided.size() - 1).targetMilli();
  }

  /**
   * Pod a refused, decided again after its backoff, then pod b fills the node and a is decided
   * again; with {@code status}, a status-only snapshot of a right after (the reversed target
   * still pending).
   */
  private MemoryTopics reversal(long limit, boolean status) {
    MemoryTopics log = memoryTopics();
    log.add(topics.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)), T0);
    log.add(topics.namespaces(), "team-a", JsonCodec.encode(
        new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)), T0);
    log.add(topics.nodes(), "n1", JsonCodec.encode(node("n1", 8_000)), T0.plusSeconds(1));
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "a", 200, limit)), T0.plusSeconds(2));
    log.add(topics.outcomes(), "n1", JsonCodec.encode(new ResizeOutcome("n1", "uid-a", "team-a", "a",
        OutcomeResult.REJECTED, 0, T0.plusSeconds(90), "refused")), T0.plusSeconds(90));
    for (int minute = 3; minute <= 5; minute++) { // moves the clock past the backoff: decided again
      log.add(topics.nodes(), "n2", JsonCodec.encode(node("n2", 4_000)), T0.plusSeconds(60L * minute));
    }
    log.add(topics.pods(), "n1", JsonCodec.encode(pod("n1", "b", 7_800, 7_800)), T0.plusSeconds(320));
    for (int minute = 6; minute <= 9; minute++) { // decided again, with b
      log.add(topics.nodes(), "n2", JsonCodec.encode(node("n2", 4_000)), T0.plusSeconds(60L * minute - 20));
      if (status && minute == 6) {
        log.add(topics.pods(), "n1", JsonCodec.encode(status(pod("n1", "a", 200, limit))), T0.plusSeconds(345));
      }
    }
    return log;
  }

  /** The same pod, a status-only update (a new resourceVersion). */
  private static PodSnapshot status(PodSnapshot p) {
    return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), p.phase(), p.qosClass(), "status-2",
        p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(), p.vpaControlsLimits(), p.owners(),
        p.containers(), p.resize());
  }

  @Test
  void anInfeasibleResizeIsRefused() {
    MemoryTopics log = memoryTopics();
    PodSnapshot infeasible = pod("n1", "a", 200, 400);
    infeasible = new PodSnapshot(infeasible.uid(), infeasible.namespace(), infeasible.name(), infeasible.node(),
        infeasible.phase(), infeasible.qosClass(), "2", 1, null, 0, null, false, List.of(),
        infeasible.containers(), ResizeStatus.INFEASIBLE);
    log.add(topics.pods(), "n1", JsonCodec.encode(infeasible), T0.plusSeconds(1));
    assertThatThrownBy(() -> fold(log, log.partition(topics.pods(), "n1"))).isInstanceOf(CheckpointFold.Refused.class);
  }

  // ---- the two derivations over one partition's history, as the bench runs them ---------------

  /** The log as the bench lays it out: node-keyed topics in {@link #PARTITIONS} partitions, compacted ones in one. */
  private MemoryTopics memoryTopics() {
    Map<String, Integer> partitions = new LinkedHashMap<>();
    topics.nodeKeyed().forEach(t -> partitions.put(t, PARTITIONS));
    topics.compacted().forEach(t -> partitions.put(t, 1));
    return new MemoryTopics(partitions);
  }

  private List<String> full(MemoryTopics log, int partition) {
    List<String> out = new ArrayList<>();
    try (TopicHistory history = history(log, partition)) {
      CheckpointDerivation.derive(history, topics, T0.plus(Duration.ofDays(1)),
          c -> out.add(HexFormat.of().formatHex(CheckpointCodec.encode(c))), () -> { });
    }
    return out;
  }

  private List<String> fold(MemoryTopics log, int partition) {
    List<String> out = new ArrayList<>();
    try (TopicHistory history = history(log, partition)) {
      CheckpointFold.derive(history, topics, T0.plus(Duration.ofDays(1)),
          c -> out.add(HexFormat.of().formatHex(CheckpointCodec.encode(c))));
    }
    return out;
  }

  private TopicHistory history(MemoryTopics log, int partition) {
    return new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5),
        new TopicHistory.Scope(Map.of(), tp -> topics.compacted().contains(tp.topic()) || tp.partition() == partition));
  }

  private record Decided(Instant at, long targetMilli) {}

  /** The targets the topology decided for {@code uid}'s container, replaying the whole log in order. */
  private List<Decided> decided(MemoryTopics log, String uid) {
    List<Decided> targets = new ArrayList<>();
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), new TopologyListener() { }, T0)) {
      for (MemoryTopics.Added r : log.records()) {
        engine.pipeRaw(r.topic(), r.key(), r.value(), r.at());
        for (NodeDecision d : engine.drainDecisions()) {
          d.changes().stream().filter(c -> c.uid().equals(uid)).flatMap(c -> c.containers().stream())
              .map(c -> new Decided(d.at(), c.toMilli())).forEach(targets::add);
        }
      }
    }
    return targets;
  }

  private static NodeSnapshot node(String name, long allocatable) {
    return new NodeSnapshot(name, allocatable, "linux", false, Map.of());
  }

  private static PodSnapshot pod(String node, String name, long request, long limit) {
    return new PodSnapshot("uid-" + name, "team-a", name, node, "Running", PodSnapshot.QOS_BURSTABLE,
        Long.toString(limit), 1, null, 0, null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, request, limit, false, false)), ResizeStatus.NONE);
  }
}
