package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import java.time.Instant;
import java.util.List;

/**
 * Every node's checkpoint at one boundary: where a replay can start instead of the log's
 * beginning ({@link Audit#resume}).
 *
 * @param at the boundary
 * @param nodes the checkpoints taken at it, one per node the topology held
 */
public record CheckpointCut(Instant at, List<NodeCheckpoint> nodes) {
  public CheckpointCut {
    nodes = List.copyOf(nodes);
    for (NodeCheckpoint c : nodes) {
      if (!c.at().equals(at)) {
        throw new IllegalArgumentException("checkpoint of " + c.node() + " is at " + c.at() + ", not " + at);
      }
    }
  }
}
