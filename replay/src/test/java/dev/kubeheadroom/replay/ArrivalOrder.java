package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * One live task fed node n1's events in a given arrival order (what its fetches delivered, not
 * record-time order) through the built topology under {@code TopologyTestDriver}: the checkpoints
 * it writes, and the log those events leave (one partition per topic, numbered from 0 as the
 * driver numbers them), for the checkpoint tests.
 */
final class ArrivalOrder {
  private ArrivalOrder() {}

  /** One event as it arrived: its topic, the event, and its record time in minutes past {@code t0}. */
  record Arrival(String topic, NodeEvent event, int minute) {}

  static MemoryTopics run(Topics topics, Path stateDir, String appId, Instant t0, List<Arrival> arrivals,
      Consumer<NodeCheckpoint> checkpointed) {
    MemoryTopics log = MemoryTopics.onePartitionEach(Audit.inputTopics(topics));
    TopologySettings settings = TopologySettings.defaults(topics);
    TopologyListener listener = new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint c) {
        checkpointed.accept(c);
      }
    };
    Properties props = TopologyRunner.properties(new TopologyRunner.Options(appId,
        KafkaClientSettings.of("never:0"), stateDir), settings, listener);
    try (TopologyTestDriver driver = new TopologyTestDriver(HeadroomTopology.build(settings, listener), props, t0)) {
      Map<String, TestInputTopic<String, byte[]>> in = new TreeMap<>();
      for (String t : Audit.inputTopics(topics)) {
        in.put(t, driver.createInputTopic(t, new StringSerializer(), new ByteArraySerializer()));
      }
      for (Arrival a : arrivals) {
        byte[] value = JsonCodec.encode(a.event());
        Instant at = t0.plus(Duration.ofMinutes(a.minute()));
        driver.advanceWallClockTime(Duration.ZERO);
        in.get(a.topic()).pipeInput("n1", value, at);
        log.add(a.topic(), "n1", value, at);
      }
    }
    return log;
  }

  /** Replays {@code log} as {@code audit --verify} does, to the stored {@code boundaries}: the checkpoints, by key. */
  static Map<String, NodeCheckpoint> derive(MemoryTopics log, Topics topics, Instant until,
      Map<Instant, CheckpointDerivation.Boundary> boundaries) {
    Map<String, NodeCheckpoint> out = new java.util.LinkedHashMap<>();
    try (TopicHistory history = new TopicHistory(log.consumer(), Audit.inputTopics(topics), Duration.ofSeconds(5))) {
      CheckpointDerivation.deriveAt(history, topics, until, boundaries, c -> out.put(c.key(), c), () -> { });
    }
    return out;
  }

  static NodeSnapshot node(long allocatable) {
    return new NodeSnapshot("n1", allocatable, "linux", false, Map.of());
  }

  static PodSnapshot pod(String name, long request) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", PodSnapshot.QOS_BURSTABLE, "1", 1, null,
        0, null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, request, 0, false, false)),
        ResizeStatus.NONE);
  }
}
