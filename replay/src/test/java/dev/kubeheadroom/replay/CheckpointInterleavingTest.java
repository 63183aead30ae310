package dev.kubeheadroom.replay;

import static dev.kubeheadroom.replay.ArrivalOrder.node;
import static dev.kubeheadroom.replay.ArrivalOrder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.MemoryTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live task reads its co-partitioned topics as they are fetched ({@code max.task.idle.ms=-1}),
 * not in record-time order: here node n1's snapshot of minute 22 is read before its pod of minute
 * 19, so the minute-20 checkpoint the topology writes (under {@code TopologyTestDriver}, records
 * piped in that arrival order) holds the pods of minutes 2 and 5 but not 19. The log, merged by
 * record time, puts the pod of minute 19 before the boundary: a re-derivation by time folds it in
 * (what {@code audit --verify} did, reporting the checkpoint as differing), and an audit that
 * replays the pods topic from minute 20 never reads it. Each checkpoint now carries its cut (per
 * partition, the first offset not folded in): folded up to it, the derivation gives the live
 * checkpoint byte for byte, and an audit from it reads exactly the records past it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckpointInterleavingTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final Topics topics = Topics.defaults();
  private MemoryTopics log;
  /** The checkpoints the topology wrote, hex, by key. */
  private final Map<String, String> live = new LinkedHashMap<>();

  @TempDir static Path stateDir;

  @BeforeAll
  void runTheTopologyInArrivalOrder() {
    // The arrival order: the nodes partition's fetch of minute 22 before the pods' of minute 19.
    List<ArrivalOrder.Arrival> arrivals = List.of(
        new ArrivalOrder.Arrival(topics.nodes(), node(8_000), 1),
        new ArrivalOrder.Arrival(topics.pods(), pod("a", 200), 2),
        new ArrivalOrder.Arrival(topics.pods(), pod("b", 300), 5),
        new ArrivalOrder.Arrival(topics.nodes(), node(12_000), 22),
        new ArrivalOrder.Arrival(topics.pods(), pod("c", 400), 19),
        new ArrivalOrder.Arrival(topics.pods(), pod("d", 500), 31));
    log = ArrivalOrder.run(topics, stateDir, "interleaving", T0, arrivals,
        c -> live.put(c.key(), HexFormat.of().formatHex(CheckpointCodec.encode(c))));
  }

  @Test
  void theLiveCheckpointHoldsWhatWasReadBeforeTheBoundaryNotWhatIsTimedBeforeIt() {
    NodeCheckpoint at20 = CheckpointCodec.decode(HexFormat.of().parseHex(live.get(key(20))));
    assertThat(at20.pods()).extracting(p -> p.pod().name()).containsExactly("a", "b");
    assertThat(at20.snapshot().allocatableMilli()).isEqualTo(8_000);
    assertThat(at20.cut()).containsExactly(new NodeCheckpoint.Position(topics.nodes(), 0, 1),
        new NodeCheckpoint.Position(topics.pods(), 0, 2));
    NodeCheckpoint at30 = CheckpointCodec.decode(HexFormat.of().parseHex(live.get(key(30))));
    assertThat(at30.pods()).extracting(p -> p.pod().name()).containsExactly("a", "b", "c");
    assertThat(at30.snapshot().allocatableMilli()).isEqualTo(12_000);

    // What re-deriving by record time gives (the defect): the pod of minute 19 is in, at minute 20.
    Map<String, NodeCheckpoint> byTime = derive(Map.of());
    assertThat(byTime.get(key(20)).pods()).extracting(p -> p.pod().name()).containsExactly("a", "b", "c");
  }

  @Test
  void reDerivedUpToTheStoredCutsTheCheckpointsAreTheLiveOnesByteForByte() {
    Map<Instant, CheckpointDerivation.Boundary> cuts = new TreeMap<>();
    live.values().stream().map(h -> CheckpointCodec.decode(HexFormat.of().parseHex(h)))
        .forEach(c -> cuts.put(c.at(), new CheckpointDerivation.Boundary(c.cut(), Map.of(c.node(), c.order()))));
    Map<String, String> derived = deriveAt(cuts).entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
        e -> HexFormat.of().formatHex(CheckpointCodec.encode(e.getValue())), (a, b) -> b, LinkedHashMap::new));
    assertThat(live).containsOnlyKeys(key(20), key(30));
    // (the derivation also passes minute 10, at the pod of minute 19: no checkpoint is stored there)
    assertThat(derived).containsAllEntriesOf(live);
  }

  @Test
  void anAuditFromTheCutReadsEveryRecordPastItOnceAndAgreesWithTheWholeReplay() {
    CheckpointCut cut = new CheckpointCut(T0.plus(Duration.ofMinutes(20)),
        List.of(CheckpointCodec.decode(HexFormat.of().parseHex(live.get(key(20))))));
    Instant at = T0.plus(Duration.ofMinutes(25));
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5),
        Audit.scope(cut, topics));
        Audit resumed = Audit.resume(cut, history, topics, at, Audit.Progress.NONE);
        TopicHistory whole = new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5));
        Audit full = Audit.replay(whole, topics, at, Audit.Progress.NONE)) {
      // the node of minute 22 and the pod of minute 19: the two records past the cut before 25
      assertThat(resumed.records()).isEqualTo(2);
      assertThat(resumed.booking("n1").pods().keySet()).containsExactly("uid-a", "uid-b", "uid-c");
      assertThat(resumed.booking("n1").snapshot()).isEqualTo(full.booking("n1").snapshot());
      assertThat(resumed.booking("n1").pods().keySet()).isEqualTo(full.booking("n1").pods().keySet());
    }
  }

  private Map<String, NodeCheckpoint> derive(Map<Instant, List<NodeCheckpoint.Position>> cuts) {
    Map<String, NodeCheckpoint> out = new LinkedHashMap<>();
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5))) {
      CheckpointDerivation.derive(history, topics, T0.plus(Duration.ofHours(1)), cuts, c -> out.put(c.key(), c),
          () -> { });
    }
    return out;
  }

  private Map<String, NodeCheckpoint> deriveAt(Map<Instant, CheckpointDerivation.Boundary> cuts) {
    return ArrivalOrder.derive(log, topics, T0.plus(Duration.ofHours(1)), cuts);
  }

  private static String key(int minute) {
    return NodeCheckpoint.key("n1", T0.plus(Duration.ofMinutes(minute)));
  }
}
