package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;

/** What the topology reports to metrics and logs. Callbacks run on the stream thread: be quick. */
public interface TopologyListener {
  TopologyListener NONE = new TopologyListener() {};

  /**
   * A record read from {@code topic} (empty when none: a punctuation) was not used and went to the
   * dead-letter topic (or, for global tables, was skipped), for {@code kind}; {@code reason} is
   * the human-readable why.
   */
  default void deadLetter(String topic, DeadLetter.Kind kind, String reason) {}

  /** A decision was emitted (whole: a split one is reported once, before its parts are sent). */
  default void decided(NodeDecision decision) {}

  /**
   * A refusal ({@code result}) put a pod in backoff, its {@code attempt}-th in a row; the wait
   * grows with it ({@code booking.RefusalBackoff}).
   */
  default void backedOff(String node, OutcomeResult result, int attempt) {}

  /** A node was evaluated (whether or not anything changed); {@code nanos} is the compute time. */
  default void evaluated(String node, long nanos) {}

  /**
   * A record of a superseded ingest leadership was dropped: its {@code epoch} is below the
   * {@code fence} already seen for the node (an old leader's queued record landing after the new
   * leader's re-publish).
   */
  default void fenced(String topic, String node, long epoch, long fence) {}

  /** A pod left the node (deleted, or rebound elsewhere): its per-pod series go. */
  default void podRemoved(String node, String namespace, String name) {}

  /** A node's state was dropped. */
  default void nodeRemoved(String node) {}

  /** A node's booking was checkpointed (stream time crossed a checkpoint boundary). */
  default void checkpointed(dev.kubeheadroom.schemas.NodeCheckpoint checkpoint) {}
}
