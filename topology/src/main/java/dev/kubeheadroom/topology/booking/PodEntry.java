package dev.kubeheadroom.topology.booking;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A pod on the node with what Headroom remembers about it. One entry per store key, so an event
 * rewrites one small value, not the node.
 *
 * @param pod the last snapshot
 * @param pending an emitted, unconfirmed target, or null
 * @param backoffSince when the last refusal (or the kubelet's Infeasible condition) put it in
 *     backoff, or null
 * @param infeasibleSeen the snapshot's Infeasible condition has already started one backoff (so a
 *     condition that outlives the backoff does not restart it forever)
 * @param refusals consecutive refusals since the pod or its node last changed in a way that could
 *     change the answer, or a target was applied; sets the backoff's length ({@link RefusalBackoff})
 * @param facts what a decision reads of {@code pod}, derived from it when the entry is made (any
 *     value given that was not read from this very snapshot is replaced): not part of the entry's
 *     value, so neither stored nor compared
 */
public record PodEntry(
    PodSnapshot pod, Pending pending, Instant backoffSince, boolean infeasibleSeen, int refusals,
    @JsonIgnore PodFacts facts) {
  public PodEntry {
    Objects.requireNonNull(pod, "pod");
    refusals = Math.max(0, refusals);
    facts = facts != null && facts.readFrom(pod) ? facts : PodFacts.of(pod);
  }

  public PodEntry(PodSnapshot pod, Pending pending, Instant backoffSince, boolean infeasibleSeen, int refusals) {
    this(pod, pending, backoffSince, infeasibleSeen, refusals, null);
  }

  /** An entry with no refusal counted (entries written before refusals were counted). */
  public PodEntry(PodSnapshot pod, Pending pending, Instant backoffSince, boolean infeasibleSeen) {
    this(pod, pending, backoffSince, infeasibleSeen, backoffSince == null ? 0 : 1);
  }

  static PodEntry of(PodSnapshot pod) {
    return new PodEntry(pod, null, null, false, 0);
  }

  PodEntry withPod(PodSnapshot value) {
    return new PodEntry(value, pending, backoffSince, infeasibleSeen, refusals);
  }

  PodEntry withPending(Pending value) {
    return new PodEntry(pod, value, backoffSince, infeasibleSeen, refusals, facts);
  }

  PodEntry withBackoff(Instant since, boolean seen) {
    return new PodEntry(pod, pending, since, seen, refusals, facts);
  }

  /** One more refusal, answered at {@code at}: a new, longer backoff from then. */
  PodEntry refused(Instant at) {
    return new PodEntry(pod, null, at, infeasibleSeen, refusals == Integer.MAX_VALUE ? refusals : refusals + 1, facts);
  }

  /** The episode is over: no backoff, no refusal counted. */
  PodEntry cleared() {
    return refusals == 0 && backoffSince == null ? this : new PodEntry(pod, pending, null, infeasibleSeen, 0, facts);
  }

  boolean inBackoff(Instant now, Duration backoffPeriod) {
    Instant until = RefusalBackoff.until(this, backoffPeriod);
    return until != null && now.isBefore(until);
  }

  // The entry's value is its first five components: facts follow from the pod.

  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof PodEntry other
        && infeasibleSeen == other.infeasibleSeen
        && refusals == other.refusals
        && pod.equals(other.pod)
        && Objects.equals(pending, other.pending)
        && Objects.equals(backoffSince, other.backoffSince);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pod, pending, backoffSince, infeasibleSeen, refusals);
  }

  @Override
  public String toString() {
    return "PodEntry[pod=" + pod + ", pending=" + pending + ", backoffSince=" + backoffSince
        + ", infeasibleSeen=" + infeasibleSeen + ", refusals=" + refusals + "]";
  }
}
