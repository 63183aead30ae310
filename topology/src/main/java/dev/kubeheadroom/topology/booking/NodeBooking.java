package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.SyncMark;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
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
 * @param pods live pods by uid (sorted: iteration order is part of determinism); copied into an
 *     immutable {@link PodTable}, unless already one, which is shared: every event makes a new
 *     booking, and each makes its pods from the last booking's table by a copy of one array
 */
public record NodeBooking(String node, NodeSnapshot snapshot, SortedMap<String, PodEntry> pods) {
  public NodeBooking {
    pods = PodTable.copyOf(pods);
  }

  /** A booking over pods read from the stores (a map no one else holds). */
  static NodeBooking owning(String node, NodeSnapshot snapshot, TreeMap<String, PodEntry> fresh) {
    return new NodeBooking(node, snapshot, fresh);
  }

  public static NodeBooking empty(String node) {
    return new NodeBooking(node, null, PodTable.EMPTY);
  }

  /** The pods as the table they are held in. */
  PodTable table() {
    return (PodTable) pods;
  }

  /** Folds one event, observed at {@code at} (its record time), into the booking. */
  public Step apply(NodeEvent event, Instant at) {
    // Java 17 has no pattern switch; this chain covers every NodeEvent variant.
    if (event instanceof PodSnapshot pod) {
      return applyPod(pod, at);
    } else if (event instanceof PodRemoved removed) {
      return removePod(removed.uid());
    } else if (event instanceof NodeSync sync) {
      // A chunk speaks for its uid range only (NodeSync): pods outside it are left alone.
      Set<String> gone = new HashSet<>();
      for (String uid : pods.keySet()) {
        if (sync.covers(uid)) {
          gone.add(uid);
        }
      }
      gone.removeAll(sync.podUids());
      return removePods(gone);
    } else if (event instanceof NodeSnapshot node) {
      if (node.equals(snapshot)) {
        return Step.unchanged(this);
      }
      if (snapshot != null && snapshot.allocatableMilli() != node.allocatableMilli()) {
        return clearRefusals(node); // a new allocatable can change every pod's target
      }
      return new Step(new NodeBooking(this.node, node, pods), Set.of(), true, true, Optional.empty());
    } else if (event instanceof NodeRemoved) {
      // The node goes, its pods stay booked: a kubelet whose Node object was deleted registers it
      // again under the same name with its pods still running, and they still use its CPU. The
      // pods leave with their own removals (the pod GC deletes pods of a node gone for good).
      return new Step(new NodeBooking(node, null, pods), Set.of(), true, false, Optional.empty());
    } else if (event instanceof ResizeOutcome outcome) {
      return applyOutcome(outcome);
    } else if (event instanceof SyncMark) {
      return Step.unchanged(this); // brackets a re-publish's pods; the booking processor holds the node
    }
    throw new IllegalArgumentException("unknown event " + event.getClass().getName());
  }

  private Step applyPod(PodSnapshot pod, Instant at) {
    PodEntry old = pods.get(pod.uid());
    if (pod.terminal()) {
      // Succeeded and Failed pods count nowhere: they leave every sum.
      return old == null ? Step.unchanged(this) : removePod(pod.uid());
    }
    PodEntry entry = old == null ? PodEntry.of(pod) : old.withPod(pod);
    if (old != null && answerMayChange(old.pod(), pod)) {
      entry = entry.cleared(); // a refusal of the old spec says nothing about the new one
    }
    if (entry.pending() != null && confirms(pod, entry.pending())) {
      entry = entry.withPending(null).cleared();
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
        bookingChanged || entry.backoffSince() != (old == null ? null : old.backoffSince())
            || entry.refusals() != (old == null ? 0 : old.refusals()),
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
    if (outcome.result() == OutcomeResult.GONE) {
      // The API server has no pod of this uid (deleted, or replaced under its name by a new uid;
      // uids are never reused): it leaves the booking now. Its removal event usually follows, but
      // a booking that holds a pod whose removal was lost (restored from a changelog that missed
      // the tombstone) would otherwise keep its requests booked and decide it again at every
      // tick, each answered gone.
      return removePod(outcome.podUid());
    }
    PodEntry next = switch (outcome.result()) {
      case APPLIED -> entry.cleared(); // the API server took it: the refusal episode is over
      case DEFERRED -> entry; // wait for the snapshot; the kubelet retries
      // An enforcing target answered dry-run (dryRun was flipped on while it waited for the
      // actuator) was not applied and never will be: it is no longer in flight, so the pod is
      // decided again from its own limit, not left until the target would expire. A dry-run
      // target answered dry-run stays remembered, so that it is not re-sent.
      case DRY_RUN -> entry.pending() != null && !entry.pending().dryRun()
          && entry.pending().targetMilli() == outcome.targetMilli() ? entry.withPending(null) : entry;
      // Every refusal backs off, longer each time (RefusalBackoff): a LimitRange, a validating
      // policy or a 422 refuses the same target again, and re-patching it at every debounce was
      // a loop. An outcome no later than the running backoff's start is a redelivery: not counted.
      // A rejected decision (the actuator's own checks) would be rejected again: it backs off too.
      case INFEASIBLE, QUOTA_DENIED, CONFLICT, ERROR, REJECTED ->
          entry.backoffSince() != null && !outcome.at().isAfter(entry.backoffSince())
              ? entry : entry.refused(outcome.at());
      case GONE -> entry; // left the booking above
    };
    if (next.equals(entry)) {
      return Step.unchanged(this);
    }
    return new Step(with(outcome.podUid(), next), Set.of(outcome.podUid()), false, true,
        Optional.empty());
  }

  /**
   * Whether the pod changed in a way that could change the API server's or kubelet's answer: its
   * containers' requests and limits, its max-cpu annotation or its mode. A status-only update
   * (a new resourceVersion, a resize condition) is not one.
   */
  private static boolean answerMayChange(PodSnapshot before, PodSnapshot after) {
    return !before.containers().equals(after.containers())
        || before.maxCpuMilli() != after.maxCpuMilli()
        || !Objects.equals(before.mode(), after.mode());
  }

  /** The node as {@code node}, every pod's refusal episode over. */
  private Step clearRefusals(NodeSnapshot node) {
    Map<String, PodEntry> edits = new HashMap<>();
    for (Map.Entry<String, PodEntry> e : pods.entrySet()) {
      PodEntry cleared = e.getValue().cleared();
      if (cleared != e.getValue()) {
        edits.put(e.getKey(), cleared);
      }
    }
    return new Step(new NodeBooking(this.node, node, table().replacing(edits)), edits.keySet(), true, true,
        Optional.empty());
  }

  /** {@link #removePods} of one uid, without the sets. */
  private Step removePod(String uid) {
    PodTable next = table().without(uid);
    if (next == pods) {
      return Step.unchanged(this);
    }
    return new Step(new NodeBooking(node, snapshot, next), Set.of(uid), false, true, Optional.empty());
  }

  private Step removePods(Set<String> uids) {
    Set<String> removed = new HashSet<>();
    for (String uid : uids) {
      if (pods.containsKey(uid)) {
        removed.add(uid);
      }
    }
    if (removed.isEmpty()) {
      return Step.unchanged(this);
    }
    return new Step(new NodeBooking(node, snapshot, table().without(removed)), removed, false, true,
        Optional.empty());
  }

  NodeBooking with(String uid, PodEntry entry) {
    return new NodeBooking(node, snapshot, table().with(uid, entry));
  }
}
