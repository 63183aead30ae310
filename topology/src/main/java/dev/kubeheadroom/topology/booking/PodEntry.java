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
 * @param backoffSince when an infeasible / quota-denied answer put it in backoff, or null
 * @param infeasibleSeen the snapshot's Infeasible condition has already started one backoff (so a
 *     condition that outlives the backoff does not restart it forever)
 */
public record PodEntry(PodSnapshot pod, Pending pending, Instant backoffSince, boolean infeasibleSeen) {
  public PodEntry {
    Objects.requireNonNull(pod, "pod");
  }

  static PodEntry of(PodSnapshot pod) {
    return new PodEntry(pod, null, null, false);
  }

  PodEntry withPod(PodSnapshot value) {
    return new PodEntry(value, pending, backoffSince, infeasibleSeen);
  }

  PodEntry withPending(Pending value) {
    return new PodEntry(pod, value, backoffSince, infeasibleSeen);
  }

  PodEntry withBackoff(Instant since, boolean seen) {
    return new PodEntry(pod, pending, since, seen);
  }

  boolean inBackoff(Instant now, Duration backoffPeriod) {
    return backoffSince != null && now.isBefore(backoffSince.plus(backoffPeriod));
  }
}
