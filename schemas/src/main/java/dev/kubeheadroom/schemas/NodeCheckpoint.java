package dev.kubeheadroom.schemas;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One node's booking as the topology held it when its task's stream time crossed {@code at} (a
 * multiple of the checkpoint interval): the node and every live pod with its refusal state, i.e.
 * everything that the node's own events (pods, nodes, outcomes) with earlier record times folded
 * into. Written to the compacted {@code checkpoints} topic, keyed {@link #key}: an audit starts
 * from the last checkpoint at or before its moment and replays only what came after it.
 *
 * <p>A pod's emitted-but-unconfirmed target is left out on purpose: it comes from a decision
 * taken on the wall clock, so it is the one part of the booking a replay of the log cannot
 * reproduce byte for byte (the decisions topic records it). Without it a checkpoint is a pure
 * function of the log, and {@code audit --verify} can re-derive it and compare.
 *
 * @param node node name
 * @param at the stream-time boundary the checkpoint was taken at (also the record's timestamp)
 * @param snapshot the node, or null when only its pods were seen so far
 * @param pods the live pods, sorted by uid
 */
public record NodeCheckpoint(String node, Instant at, NodeSnapshot snapshot, List<CheckpointPod> pods)
    implements Versioned {
  public NodeCheckpoint {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(at, "at");
    pods = pods == null ? List.of()
        : pods.stream().sorted(Comparator.comparing(p -> p.pod().uid())).toList();
  }

  /**
   * The record key: node and boundary, so a checkpoint written twice (a restarted task, a
   * re-derivation) compacts into one, and the checkpoints of different boundaries all survive.
   */
  public static String key(String node, Instant at) {
    return node + "@" + at.toEpochMilli();
  }

  public String key() {
    return key(node, at);
  }

  /**
   * What the topology remembers about one pod, minus the pending target (see the record's doc).
   *
   * @param pod the last snapshot
   * @param backoffSince when the running refusal backoff started, or null
   * @param infeasibleSeen the kubelet's Infeasible condition has already started one backoff
   * @param refusals consecutive refusals counted
   */
  public record CheckpointPod(PodSnapshot pod, Instant backoffSince, boolean infeasibleSeen, int refusals) {
    public CheckpointPod {
      Objects.requireNonNull(pod, "pod");
    }
  }
}
