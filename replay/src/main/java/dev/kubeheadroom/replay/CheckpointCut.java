package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The checkpoints at one boundary: every node's, or one node's ({@link CheckpointReader#latestOf}):
 * where a replay can start instead of the log's beginning ({@link Audit#resume}).
 *
 * @param at the boundary
 * @param nodes the checkpoints taken at it, one per node the topology held (or the one asked for)
 * @param positions per input partition, the first offset the checkpoints did not fold in
 */
public record CheckpointCut(Instant at, List<NodeCheckpoint> nodes, Map<TopicPartition, Long> positions) {
  public CheckpointCut {
    nodes = List.copyOf(nodes);
    positions = Map.copyOf(positions);
    for (NodeCheckpoint c : nodes) {
      if (!c.at().equals(at)) {
        throw new IllegalArgumentException("checkpoint of " + c.node() + " is at " + c.at() + ", not " + at);
      }
    }
  }

  /** The cut of {@code nodes}, its positions theirs ({@link #positionsOf}). */
  public CheckpointCut(Instant at, List<NodeCheckpoint> nodes) {
    this(at, nodes, positionsOf(nodes));
  }

  /**
   * Per input partition, the first offset the checkpoints did not fold in: where a replay from
   * them starts reading it. A partition no checkpoint names is read from the boundary's time.
   */
  public Map<TopicPartition, Long> offsets() {
    return positions;
  }

  /**
   * The positions {@code checkpoints} carry. A task writes the same cut into each of its
   * checkpoints of a boundary; were two to differ (a task restarted while writing), the lower
   * offset is kept, so no record is missed.
   */
  public static Map<TopicPartition, Long> positionsOf(List<NodeCheckpoint> checkpoints) {
    Map<TopicPartition, Long> out = new HashMap<>();
    for (NodeCheckpoint c : checkpoints) {
      for (NodeCheckpoint.Position p : c.cut()) {
        out.merge(new TopicPartition(p.topic(), p.partition()), p.offset(), Math::min);
      }
    }
    return out;
  }
}
