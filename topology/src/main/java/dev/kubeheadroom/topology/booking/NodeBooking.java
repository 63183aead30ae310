package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One node's booking: the node and every live pod on it, with what Headroom remembers per pod.
 * A pure aggregate: {@link #apply} folds one event into a new booking and {@link
 * NodeDecider#decide} turns a booking into a decision; neither reads a clock or does I/O, so
 * replaying the same events gives the same bookings and decisions.
 *
 * @param node node name
 * @param snapshot the node, or null until its first snapshot arrives (pods can come first)
 * @param pods live pods by uid (sorted: iteration order is part of determinism); copied, unless
 *     already an unmodifiable view, which is taken as handed over (see {@link #owning})
 */
public record NodeBooking(String node, NodeSnapshot snapshot, SortedMap<String, PodEntry> pods) {
  private static final Class<?> HANDED_OVER = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();

  public NodeBooking {
    if (pods.getClass() != HANDED_OVER) {
      pods = Collections.unmodifiableSortedMap(new TreeMap<>(pods));
    }
  }

  /**
   * A booking over a map no one else holds, without the defensive copy: every event makes a new
   * booking, and copying each node's pods twice per event was a tenth of a replay.
   */
  static NodeBooking owning(String node, NodeSnapshot snapshot, TreeMap<String, PodEntry> fresh) {
    return new NodeBooking(node, snapshot, Collections.unmodifiableSortedMap(fresh));
  }

  public static NodeBooking empty(String node) {
    return new NodeBooking(node, null, new TreeMap<>());
  }

  /** Folds one event, observed at {@code at} (its record time), into the booking. */
  public Step apply(NodeEvent event, Instant at) {
    // Java 17 has no pattern switch; this chain covers every NodeEvent variant.
    if (event instanceof PodSnapshot pod) {
      return applyPod(pod, at);
    } else if (event instanceof PodRemoved removed) {
      return removePods(Set.of(removed.uid()));
    } else if (event instanceof NodeSync sync) {
      Set<String> gone = new HashSet<>(pods.keySet());
      gone.removeAll(sync.podUids());
      return removePods(gone);
    } else if (event instanceof NodeSnapshot node) {
      return node.equals(snapshot)
          ? Step.unchanged(this)
          : new Step(new NodeBooking(this.node, node, pods), Set.of(), true, true, Optional.empty());
    } else if (event instanceof NodeRemoved) {
      return new Step(empty(node), pods.keySet(), true, false, Optional.empty());
    } else if (event instanceof ResizeOutcome outcome) {
      return applyOutcome(outcome);
    }
    throw new IllegalArgumentException("unknown event " + event.getClass().getName());
  }

  private Step applyPod(PodSnapshot pod, Instant at) {
    PodEntry old = pods.get(pod.uid());
    if (pod.terminal()) {
      // Succeeded and Failed pods count nowhere: they leave every sum.
      return old == null ? Step.unchanged(this) : removePods(Set.of(pod.uid()));
    }
    PodEntry entry = old == null ? PodEntry.of(pod) : old.withPod(pod);
    if (entry.pending() != null && confirms(pod, entry.pending())) {
      entry = entry.withPending(null);
    }
    if (pod.resize() == ResizeStatus.INFEASIBLE) {
      // After a restart the kubelet's condition is the only trace of an earlier Infeasible answer.
      if (!entry.infeasibleSeen()) {
        entry = entry.withBackoff(entry.backoffSince() == null ? at : entry.backoffSince(), true);
      }
    } else if (entry.infeasibleSeen()) {
      entry = entry.withBackoff(entry.backoffSince(), false);
    }
    if (entry.equals(old)) {
      return Step.unchanged(this);
    }
    boolean bookingChanged = old == null || !pod.sameBooking(old.pod());
    return new Step(with(pod.uid(), entry), Set.of(pod.uid()), false,
        bookingChanged || entry.backoffSince() != (old == null ? null : old.backoffSince()),
        Optional.empty());
  }

  /** A snapshot confirms a pending target when every named container shows the emitted limit. */
  private static boolean confirms(PodSnapshot pod, Pending pending) {
    Map<String, Long> want = pending.containers();
    int matched = 0;
    for (var c : pod.containers()) {
      Long limit = want.get(c.name());
      if (limit != null) {
        if (limit != c.cpuLimitMilli()) {
          return false;
        }
        matched++;
      }
    }
    return matched == want.size();
  }

  private Step applyOutcome(ResizeOutcome outcome) {
    PodEntry entry = pods.get(outcome.podUid());
    if (entry == null) {
      return Step.unchanged(this);
    }
    PodEntry next = switch (outcome.result()) {
      case APPLIED, DRY_RUN, DEFERRED -> entry; // wait for the snapshot; the kubelet retries
      case INFEASIBLE, QUOTA_DENIED, REJECTED -> // the same target would be refused again
          entry.withPending(null).withBackoff(outcome.at(), entry.infeasibleSeen());
      case CONFLICT, ERROR, GONE -> entry.pending() != null
          && entry.pending().targetMilli() == outcome.targetMilli()
          ? entry.withPending(null) : entry; // recompute from fresh state
    };
    if (next.equals(entry)) {
      return Step.unchanged(this);
    }
    return new Step(with(outcome.podUid(), next), Set.of(outcome.podUid()), false, true,
        Optional.empty());
  }

  private Step removePods(Set<String> uids) {
    TreeMap<String, PodEntry> next = new TreeMap<>(pods);
    Set<String> removed = new HashSet<>();
    for (String uid : uids) {
      if (next.remove(uid) != null) {
        removed.add(uid);
      }
    }
    if (removed.isEmpty()) {
      return Step.unchanged(this);
    }
    return new Step(owning(node, snapshot, next), removed, false, true, Optional.empty());
  }

  NodeBooking with(String uid, PodEntry entry) {
    TreeMap<String, PodEntry> next = new TreeMap<>(pods);
    next.put(uid, entry);
    return owning(node, snapshot, next);
  }
}
