package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One node's booking as the topology held it when its task's stream time crossed {@code at} (a
 * multiple of the checkpoint interval): the node and every live pod with its refusal state, i.e.
 * everything that the node's own events (pods, nodes, outcomes) read before the first record
 * at or past {@code at} folded into. Written to the compacted {@code checkpoints} topic, keyed
 * {@link #key}: an audit starts from the last checkpoint at or before its moment and replays only
 * what came after it.
 *
 * <p>Which records those are is the cut, not a record time: the task reads its co-partitioned
 * topics as they are fetched ({@code max.task.idle.ms=-1}), so a node's snapshot of minute 22 can
 * cross the minute-20 boundary before its pod of minute 19 is read. The cut says, per input
 * partition the task read, the first offset not folded in: {@code audit --verify} re-derives the
 * checkpoint by folding exactly those prefixes, and an audit replays each partition from its
 * offset. A partition the task has read nothing of since it started is absent (and so is every
 * partition in a checkpoint written before format 3): its cut is the boundary's time, as before.
 *
 * <p>A pod's emitted-but-unconfirmed target is left out on purpose: it comes from a decision
 * taken on the wall clock, so it is the one part of the booking a replay of the log cannot
 * reproduce byte for byte (the decisions topic records it). Without it a checkpoint is a function
 * of the log's prefixes named by its cut, but for what stays order-dependent (docs/architecture.md,
 * "Checkpoints"): one node's events on different topics that do not commute, read against their
 * record-time order, and a decision reversing an in-flight target.
 *
 * @param node node name
 * @param at the stream-time boundary the checkpoint was taken at (also the record's timestamp)
 * @param snapshot the node, or null when only its pods were seen so far
 * @param pods the live pods, sorted by uid
 * @param cut per input partition, the first offset not folded in; sorted by topic and partition
 * @param order the order the task read this node's records in since its previous boundary, as
 *     runs of one topic; null when not recorded (a checkpoint written before format 5, or at the
 *     boundary after its task was upgraded within the interval from a build that kept the order
 *     in memory only): {@code audit --verify} then folds them by time
 */
public record NodeCheckpoint(String node, Instant at, NodeSnapshot snapshot, List<CheckpointPod> pods,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Position> cut,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<Run> order) implements Versioned {
  public NodeCheckpoint {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(at, "at");
    pods = pods == null ? List.of()
        : pods.stream().sorted(Comparator.comparing(p -> p.pod().uid())).toList();
    cut = cut == null ? List.of()
        : cut.stream().sorted(Comparator.comparing(Position::topic).thenComparingInt(Position::partition)).toList();
    order = order == null ? null : List.copyOf(order);
  }

  /** A checkpoint without a recorded read order (one written before format 5, or by a test). */
  public NodeCheckpoint(String node, Instant at, NodeSnapshot snapshot, List<CheckpointPod> pods, List<Position> cut) {
    this(node, at, snapshot, pods, cut, null);
  }

  /** A checkpoint without a cut (one written before format 3, or by a test). */
  public NodeCheckpoint(String node, Instant at, NodeSnapshot snapshot, List<CheckpointPod> pods) {
    this(node, at, snapshot, pods, List.of());
  }

  /** The same booking with another cut. */
  public NodeCheckpoint withCut(List<Position> value) {
    return new NodeCheckpoint(node, at, snapshot, pods, value, order);
  }

  /** The same booking with another read order (null: not recorded). */
  public NodeCheckpoint withOrder(List<Run> value) {
    return new NodeCheckpoint(node, at, snapshot, pods, cut, value);
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

  /**
   * Records of the node read one after another from one topic (its partition in the cut): a
   * node's runs in turn are the order its task folded them in, which matters where its events on
   * two topics do not commute (docs/architecture.md, "Checkpoints").
   *
   * @param topic the input topic
   * @param records how many, at least 1
   */
  public record Run(String topic, int records) {
    public Run {
      Objects.requireNonNull(topic, "topic");
      if (records < 1) {
        throw new IllegalArgumentException("a run holds at least one record, not " + records);
      }
    }
  }

  /**
   * Where a checkpoint's fold stopped in one input partition.
   *
   * @param topic the input topic
   * @param partition its partition (the task's)
   * @param offset the first offset not folded in: every record before it is
   */
  public record Position(String topic, int partition, long offset) {
    public Position {
      Objects.requireNonNull(topic, "topic");
    }
  }
}
