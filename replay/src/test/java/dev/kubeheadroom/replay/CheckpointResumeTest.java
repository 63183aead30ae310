package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * A replay restored from the checkpoints at one boundary, fed only the events after it, reaches
 * the same checkpoints at the next boundaries as the replay of the whole log: what an audit that
 * starts from a checkpoint relies on, and what {@code audit --verify} re-derives.
 */
class CheckpointResumeTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final Topics topics = Topics.defaults();

  /** A record with where it is in its topic (one partition): checkpoints hold their cut in offsets. */
  private record Raw(String topic, long offset, String key, byte[] value, Instant at) {
    ConsumerRecord<String, byte[]> record() {
      return new ConsumerRecord<>(topic, 0, offset, at.toEpochMilli(), TimestampType.CREATE_TIME, 0, 0, key, value,
          new RecordHeaders(), Optional.empty());
    }
  }

  /** Three hours of a 30-node cluster: pods come, change and go; nodes resize. */
  private List<Raw> log() {
    Random random = new Random(11);
    List<Raw> log = new ArrayList<>();
    log.add(new Raw(topics.config(), 0, HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)), T0));
    log.add(new Raw(topics.namespaces(), 0, "team-a", JsonCodec.encode(
        new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)), T0));
    Instant t = T0;
    Map<String, Long> offsets = new java.util.HashMap<>();
    for (int i = 0; i < 1_500; i++) {
      t = t.plusMillis(random.nextInt(14_400));
      String node = "n" + random.nextInt(30);
      int pod = random.nextInt(300);
      NodeEvent e = switch (random.nextInt(12)) {
        case 0 -> new NodeSnapshot(node, 8000 + 2000L * random.nextInt(4), "linux", false, Map.of());
        case 1 -> new PodRemoved("uid-" + node + "-" + pod, "team-a", "p" + pod, node);
        default -> new PodSnapshot("uid-" + node + "-" + pod, "team-a", "p" + pod, node, "Running", "Burstable",
            Integer.toString(i), 1, null, 0, null, false, List.of(),
            List.of(new ContainerSnapshot("app", ContainerKind.APP, 100L * (1 + random.nextInt(20)),
                random.nextBoolean() ? 0 : 4000, false, false)), ResizeStatus.NONE);
      };
      String topic = e instanceof NodeSnapshot ? topics.nodes() : topics.pods();
      log.add(new Raw(topic, offsets.merge(topic, 1L, Long::sum) - 1, node, JsonCodec.encode(e), t));
    }
    return log;
  }

  private List<NodeCheckpoint> replay(List<Raw> log, Instant start, CheckpointCut cut) {
    List<NodeCheckpoint> written = new ArrayList<>();
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint checkpoint) {
        written.add(checkpoint);
      }
    }, start)) {
      if (cut != null) {
        cut.nodes().forEach(engine::restore);
      }
      for (Raw r : log) {
        boolean global = topics.compacted().contains(r.topic());
        if (cut == null || global || !r.at().isBefore(cut.at())) {
          if (global) {
            engine.pipeRaw(r.topic(), r.key(), r.value(), cut != null ? start : r.at());
          } else {
            engine.pipeRaw(r.record());
          }
        }
      }
    }
    return written;
  }

  private static String bytes(List<NodeCheckpoint> cs) {
    return cs.stream().map(JsonCodec::encodeToString).collect(Collectors.joining("\n"));
  }

  @Test
  void resumingFromACheckpointReachesTheSameLaterCheckpoints() {
    List<Raw> log = log();
    List<NodeCheckpoint> full = replay(log, T0, null);
    List<Instant> boundaries = full.stream().map(NodeCheckpoint::at).distinct().toList();
    assertThat(boundaries).hasSizeGreaterThanOrEqualTo(5);
    Instant b = boundaries.get(2);
    CheckpointCut cut = new CheckpointCut(b, full.stream().filter(c -> c.at().equals(b)).toList());
    assertThat(cut.nodes()).hasSizeGreaterThan(20);

    List<NodeCheckpoint> resumed = replay(log, b, cut);
    List<NodeCheckpoint> fullAfter = full.stream().filter(c -> c.at().isAfter(b)).toList();
    assertThat(resumed).isNotEmpty();
    assertThat(bytes(resumed)).isEqualTo(bytes(fullAfter));
  }

  @Test
  void theSameLogGivesTheSameCheckpointsByteForByte() {
    List<Raw> log = log();
    assertThat(bytes(replay(log, T0, null))).isEqualTo(bytes(replay(log, T0, null))).isNotEmpty();
  }
}
