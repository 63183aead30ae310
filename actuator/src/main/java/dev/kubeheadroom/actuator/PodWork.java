package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/**
 * One pod's newest change, waiting for (or in) a resize try, with the decision context the
 * annotation and event need and the record it came from.
 *
 * @param seq arrival order; a newer change for the same pod has a larger one
 * @param node the decision's node (the outcome's key)
 * @param at the decision's event time ({@code computedAt})
 * @param policy the policy's name
 * @param dryRun the decision was computed under dry-run: annotate and count, never resize
 * @param stats the node aggregates
 * @param change the pod's change
 * @param source the decisions partition the change came from
 * @param offset its offset there
 * @param attempt how many tries have been made already (0 for a fresh change)
 * @param notBeforeNanos ticker time before which it must not be tried (retry backoff)
 */
record PodWork(
    long seq, String node, Instant at, String policy, boolean dryRun, DecisionStats stats,
    PodChange change, TopicPartition source, long offset, int attempt, long notBeforeNanos) {

  PodWork {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(change, "change");
    Objects.requireNonNull(source, "source");
  }

  static PodWork of(long seq, NodeDecision decision, PodChange change, TopicPartition source, long offset) {
    return new PodWork(seq, decision.node(), decision.at(), decision.policy(), decision.dryRun(),
        decision.stats(), change, source, offset, 0, Long.MIN_VALUE);
  }

  String uid() {
    return change.uid();
  }

  /** {@code Pod(ns/name)} for log lines. */
  String describe() {
    return "Pod(" + change.namespace() + "/" + change.name() + ")";
  }

  /** The same change handled as dry-run (the current config says dry-run, whatever the decision did). */
  PodWork asDryRun() {
    return new PodWork(seq, node, at, policy, true, stats, change, source, offset, attempt, notBeforeNanos);
  }

  /** The same try again after {@code notBefore}, not counted as another (its outcome could not be recorded). */
  PodWork postponedUntil(long notBefore) {
    return new PodWork(seq, node, at, policy, dryRun, stats, change, source, offset, attempt, notBefore);
  }

  PodWork retriedAfter(long notBefore) {
    return new PodWork(seq, node, at, policy, dryRun, stats, change, source, offset, attempt + 1, notBefore);
  }
}
