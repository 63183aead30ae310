package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.MemoryTopics;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
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
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckpointReadOrderTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final Topics topics = Topics.defaults();
  private MemoryTopics log;
  /** The checkpoints the topology wrote, by key. */
  private final Map<String, NodeCheckpoint> live = new LinkedHashMap<>();

  @TempDir static Path stateDir;

  @BeforeAll
  void runTheTopologyInArrivalOrder() {
    log = MemoryTopics.onePartitionEach(Audit.inputTopics(topics));
    TopologySettings settings = TopologySettings.defaults(topics);
    TopologyListener listener = new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint c) {
        live.put(c.key(), c);
      }
    };
    Properties props = TopologyRunner.properties(new TopologyRunner.Options("read-order",
        KafkaClientSettings.of("never:0"), stateDir), settings, listener);
    try (TopologyTestDriver driver = new TopologyTestDriver(HeadroomTopology.build(settings, listener), props, T0)) {
      Map<String, TestInputTopic<String, byte[]>> in = new TreeMap<>();
      for (String t : Audit.inputTopics(topics)) {
        in.put(t, driver.createInputTopic(t, new StringSerializer(), new ByteArraySerializer()));
      }
      // The arrival order: the outcomes partition's fetch of minute 4 before the nodes' of minute 3.
      List<Object[]> arrivals = List.of(
          new Object[] {topics.nodes(), node(8_000), 1},
          new Object[] {topics.pods(), pod("a", 200), 2},
          new Object[] {topics.outcomes(), new ResizeOutcome("n1", "uid-a", "team-a", "a", OutcomeResult.CONFLICT,
              2_000, T0.plus(Duration.ofMinutes(4)), "the pod changed"), 4},
          new Object[] {topics.nodes(), node(12_000), 3},
          new Object[] {topics.pods(), pod("c", 400), 11});
      for (Object[] a : arrivals) {
        String topic = (String) a[0];
        byte[] value = JsonCodec.encode((NodeEvent) a[1]);
        Instant at = T0.plus(Duration.ofMinutes((Integer) a[2]));
        driver.advanceWallClockTime(Duration.ZERO);
        in.get(topic).pipeInput("n1", value, at);
        log.add(topic, "n1", value, at); // the driver numbers each topic's records from 0, as this log does
      }
    }
  }

  @Test
  void theLiveCheckpointCarriesTheNodesReadOrderSinceTheLastBoundary() {
    NodeCheckpoint at10 = live.get(key(10));
    assertThat(at10.pods()).singleElement().satisfies(p -> assertThat(p.refusals()).isZero());
    assertThat(at10.order()).containsExactly(new Run(topics.nodes(), 1), new Run(topics.pods(), 1),
        new Run(topics.outcomes(), 1), new Run(topics.nodes(), 1));
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
    Map<String, NodeCheckpoint> out = new LinkedHashMap<>();
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5))) {
      CheckpointDerivation.deriveAt(history, topics, T0.plus(Duration.ofHours(1)), boundaries,
          c -> out.put(c.key(), c), () -> { });
    }
    return out;
  }

  private static String key(int minute) {
    return NodeCheckpoint.key("n1", T0.plus(Duration.ofMinutes(minute)));
  }

  private static NodeSnapshot node(long allocatable) {
    return new NodeSnapshot("n1", allocatable, "linux", false, Map.of());
  }

  private static PodSnapshot pod(String name, long request) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", PodSnapshot.QOS_BURSTABLE, "1", 1, null,
        0, null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, request, 0, false, false)),
        ResizeStatus.NONE);
  }
}
