package dev.kubeheadroom.topology.booking;

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
 */
public record PodEntry(
    PodSnapshot pod, Pending pending, Instant backoffSince, boolean infeasibleSeen, int refusals) {
  public PodEntry {
    Objects.requireNonNull(pod, "pod");
    refusals = Math.max(0, refusals);
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
    return new PodEntry(pod, value, backoffSince, infeasibleSeen, refusals);
  }

  PodEntry withBackoff(Instant since, boolean seen) {
    return new PodEntry(pod, pending, since, seen, refusals);
  }

  /** One more refusal, answered at {@code at}: a new, longer backoff from then. */
  PodEntry refused(Instant at) {
    return new PodEntry(pod, null, at, infeasibleSeen, refusals == Integer.MAX_VALUE ? refusals : refusals + 1);
  }

  /** The episode is over: no backoff, no refusal counted. */
  PodEntry cleared() {
    return refusals == 0 && backoffSince == null ? this : new PodEntry(pod, pending, null, infeasibleSeen, 0);
  }

  boolean inBackoff(Instant now, Duration backoffPeriod) {
    Instant until = RefusalBackoff.until(this, backoffPeriod);
    return until != null && now.isBefore(until);
  }
}
