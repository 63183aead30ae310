package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.GangCeiling;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyNode;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.junit.jupiter.api.Test;

/**
 * The inline runner on its own (its fidelity to the built topology under TopologyTestDriver is
 * {@code InlineReplayFidelityTest}'s): Kafka's wall-clock punctuation rule, the decoder's dead
 * letters, and the stores it exposes.
 */
class InlineTopologyTest {
  static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  static final NodeSnapshot NODE16 = new NodeSnapshot("n1", 16000, "linux", false, Map.of());
  final Topics topics = Topics.defaults();
  final List<NodeDecision> decided = new ArrayList<>();
  final List<String> deadLetters = new ArrayList<>();
  final List<String> backoffs = new ArrayList<>();
  final TopologyListener listener = new TopologyListener() {
    @Override
    public void decided(NodeDecision d) {
      decided.add(d);
    }

    @Override
    public void deadLetter(String topic, dev.kubeheadroom.schemas.DeadLetter.Kind kind, String reason) {
      deadLetters.add(topic + ": " + reason);
    }

    @Override
    public void backedOff(String node, OutcomeResult result, int attempt) {
      backoffs.add(node + " " + result.wireName() + " #" + attempt);
    }
  };
  final InlineTopology inline = new InlineTopology(TopologySettings.defaults(topics), listener, T0);

  private void pipe(String topic, String key, Object value, Instant at) {
    inline.pipe(topic, key, JsonCodec.encode(value), at.toEpochMilli());
  }

  private void managedNodeWithOnePod() {
    pipe(topics.config(), HeadroomKeys.CONFIG_NAME, ClusterConfig.DEFAULTS.withDryRun(false), T0);
    pipe(topics.namespaces(), "team-a", managedNs("team-a"), T0);
    pipe(topics.nodes(), "n1", NODE16, T0);
    pipe(topics.pods(), "n1", pod("team-a", "web-1", "n1", 2000, 0), T0);
  }

  @Test
  void aLongClockMoveFiresThePunctuatorOnceWithTheNewTime() {
    managedNodeWithOnePod();
    inline.advanceWallClockTo(T0.plusSeconds(60).toEpochMilli());
    assertThat(decided).singleElement().satisfies(d -> {
      assertThat(d.at()).isEqualTo(T0.plusSeconds(60));
      assertThat(d.changes()).singleElement().satisfies(c -> assertThat(c.targetMilli()).isEqualTo(16000));
    });
  }

  @Test
  void punctuationStaysOnTheIntervalGridFromTheStart() {
    managedNodeWithOnePod();
    // Due from T0 + 2 s + jitter; fired at the first grid point (T0 + k × 100 ms) the clock reaches.
    for (long ms = 0; ms <= 3_000 && decided.isEmpty(); ms += 13) { // 13: off the 100 ms grid
      inline.advanceWallClockTo(T0.plusMillis(ms).toEpochMilli());
    }
    assertThat(decided).singleElement().satisfies(d -> {
      long offset = d.at().toEpochMilli() - T0.toEpochMilli();
      assertThat(offset).isBetween(2_000L, 2_312L);
      assertThat(offset % 13).as("fired at a clock move").isZero();
      assertThat(offset % 100).as("at the first move past a grid point, not one interval after the last fire")
          .isLessThan(13);
    });
  }

  @Test
  void theClockNeverMovesBack() {
    managedNodeWithOnePod();
    inline.advanceWallClockTo(T0.plusSeconds(5).toEpochMilli());
    inline.advanceWallClockTo(T0.plusSeconds(1).toEpochMilli());
    assertThat(inline.wallClockMs()).isEqualTo(T0.plusSeconds(5).toEpochMilli());
  }

  @Test
  void anUnreadableRecordIsDeadLetteredAndTheNodeGoesOn() {
    managedNodeWithOnePod();
    inline.pipe(topics.pods(), "n1", "{not json".getBytes(StandardCharsets.UTF_8), T0.toEpochMilli());
    inline.pipe(topics.pods(), "n2", JsonCodec.encode(pod("team-a", "x", "n1", 100, 0)), T0.toEpochMilli());
    inline.advanceWallClockTo(T0.plusSeconds(10).toEpochMilli());
    assertThat(deadLetters).hasSize(2).allMatch(l -> l.startsWith(topics.pods() + ": "));
    assertThat(deadLetters.get(1)).contains("does not match");
    assertThat(decided).hasSize(1);
  }

  @Test
  void theStoresHoldWhatTheProcessorsWrote() {
    managedNodeWithOnePod();
    NodeSnapshot node = inline.<NodeSnapshot>store(HeadroomTopology.NODES_STORE).get("n1");
    assertThat(node).isEqualTo(NODE16);
    PodEntry entry = inline.<PodEntry>store(HeadroomTopology.PODS_STORE).get("n1\0uid-web-1");
    assertThat(entry.pod().name()).isEqualTo("web-1");
    assertThatThrownBy(() -> inline.store("nope")).hasMessageContaining("no store named nope");
    assertThatThrownBy(() -> inline.pipe("elsewhere", "k", new byte[0], 0))
        .hasMessageContaining("not an input topic");
  }

  @Test
  void eachCountedRefusalIsReportedByResultWithItsAttemptAndARedeliveryIsNot() {
    managedNodeWithOnePod();
    ResizeOutcome refused = new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1",
        OutcomeResult.ERROR, 16000, T0.plusSeconds(3), "forbidden: maximum cpu usage per Container is 4");
    pipe(topics.outcomes(), "n1", refused, T0.plusSeconds(3));
    pipe(topics.outcomes(), "n1", refused, T0.plusSeconds(3)); // redelivered: not a new refusal
    ResizeOutcome conflict = new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1",
        OutcomeResult.CONFLICT, 16000, T0.plusSeconds(70), "conflict");
    pipe(topics.outcomes(), "n1", conflict, T0.plusSeconds(70));
    pipe(topics.outcomes(), "n1", new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1",
        OutcomeResult.GONE, 16000, T0.plusSeconds(80), "pod not found"), T0.plusSeconds(80));
    assertThat(backoffs).containsExactly("n1 error #1", "n1 conflict #2");
  }

  @Test
  void itHoldsEveryStoreAndReadsEveryTopicOfTheBuiltTopology() {
    TopologyDescription built = HeadroomTopology.build(TopologySettings.defaults(topics), listener).describe();
    Set<String> stores = new TreeSet<>();
    Set<String> inputs = new TreeSet<>();
    for (TopologyDescription.Subtopology sub : built.subtopologies()) {
      for (TopologyDescription.Node node : sub.nodes()) {
        if (node instanceof TopologyDescription.Processor p) {
          stores.addAll(p.stores());
        } else if (node instanceof TopologyDescription.Source src) {
          inputs.addAll(src.topicSet());
        }
      }
    }
    for (TopologyDescription.GlobalStore global : built.globalStores()) {
      stores.addAll(global.processor().stores());
      inputs.addAll(global.source().topicSet());
    }
    assertThat(stores).hasSize(9); // nodes, pods, pod-nodes, fences, gang-nodes, gangs, checkpoint-cut; namespaces, config
    stores.forEach(name -> assertThat(inline.store(name)).as(name).isNotNull());
    assertThat(inputs).hasSize(7); // and the two gang topics the topology reads back
    inputs.forEach(topic -> inline.pipe(topic, "k", null, T0.toEpochMilli()));
  }

  @Test
  void aNodeDeclaredBesideTheOthersIsRunWhereItIsWired() {
    List<Object> seen = new ArrayList<>();
    List<TopologyNode> nodes = new ArrayList<>(HeadroomTopology.nodes(TopologySettings.defaults(topics), listener));
    // The gang processor forwards without naming a child (the booking names its two outputs)
    ProcessorSupplier<String, GangCeiling, Void, Void> tap = () -> record -> seen.add(record.value());
    nodes.add(new TopologyNode.Processing("tap", tap, List.of(HeadroomTopology.GANG), List.of()));
    InlineTopology tapped = new InlineTopology(nodes, listener, T0);
    tapped.pipe(topics.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)),
        T0.toEpochMilli());
    tapped.pipe(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a")), T0.toEpochMilli());
    for (String node : List.of("n1", "n2")) {
      tapped.pipe(topics.nodes(), node, JsonCodec.encode(new NodeSnapshot(node, 16000, "linux", false, Map.of())),
          T0.toEpochMilli());
      tapped.pipe(topics.pods(), node, JsonCodec.encode(pod("team-a", "w-" + node, node, 2000, 0).withGang("g")),
          T0.toEpochMilli());
    }
    tapped.advanceWallClockTo(T0.plusSeconds(60).toEpochMilli());
    assertThat(seen).as("what the gang processor forwards: a ceiling for each member's node, to every child")
        .hasSize(2).allSatisfy(c -> assertThat(c).isInstanceOf(GangCeiling.class));
  }

  /**
   * An audit's replay runs without the checkpoint writer: across boundaries it writes no
   * checkpoint, and decides exactly as the whole topology does.
   */
  @Test
  void withoutTheCheckpointWriterTheSameDecisionsAndNoCheckpoints() {
    List<NodeDecision> decisions = new ArrayList<>();
    List<NodeDecision> alsoDecided = new ArrayList<>();
    List<String> written = new ArrayList<>();
    TopologyListener writerOff = new TopologyListener() {
      @Override
      public void decided(NodeDecision d) {
        alsoDecided.add(d);
      }

      @Override
      public void checkpointed(dev.kubeheadroom.schemas.NodeCheckpoint c) {
        written.add(c.key());
      }
    };
    TopologyListener whole = new TopologyListener() {
      @Override
      public void decided(NodeDecision d) {
        decisions.add(d);
      }

      @Override
      public void checkpointed(dev.kubeheadroom.schemas.NodeCheckpoint c) {
        written.add("whole " + c.key());
      }
    };
    try (TopologyHarness a = TopologyHarness.Factory.INLINE.open(TopologySettings.defaults(topics), whole, T0);
         TopologyHarness b = InlineTopology.WITHOUT_CHECKPOINTS.open(TopologySettings.defaults(topics), writerOff, T0)) {
      for (TopologyHarness h : List.of(a, b)) {
        h.pipe(topics.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)),
            T0.toEpochMilli());
        h.pipe(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a")), T0.toEpochMilli());
        h.pipe(topics.nodes(), "n1", JsonCodec.encode(NODE16), T0.toEpochMilli());
        for (int minute = 0; minute < 35; minute += 5) {
          long at = T0.plus(java.time.Duration.ofMinutes(minute)).toEpochMilli();
          h.pipe(topics.pods(), "n1", JsonCodec.encode(pod("team-a", "web-" + minute, "n1", 1000 + 100L * minute, 0)),
              at);
          h.advanceWallClockTo(at + 30_000);
        }
      }
    }
    assertThat(written).isNotEmpty().allSatisfy(w -> assertThat(w).startsWith("whole "));
    assertThat(decisions).isNotEmpty();
    assertThat(alsoDecided).isEqualTo(decisions);
  }

  private static NamespaceInfo managedNs(String name) {
    return new NamespaceInfo(name, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
  }

  /** A Burstable one-container pod with the given request and limit (0 = none). */
  private static PodSnapshot pod(String ns, String name, String node, long requestMilli, long limitMilli) {
    return new PodSnapshot("uid-" + name, ns, name, node, "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli, limitMilli, false, false)),
        ResizeStatus.NONE);
  }
}
