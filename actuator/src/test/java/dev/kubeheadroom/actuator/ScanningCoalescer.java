package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The oracle {@link CoalescerEquivalenceTest} holds the {@link Coalescer} to, small by design:
 * the coalescing contract with no index, every read a scan of the whole pending map. It states
 * what the Coalescer's ready/retry/commit answers are, not how they are found fast, so it changes
 * only when that contract does (first here, then in the Coalescer); an optimisation of the
 * Coalescer leaves it as it is.
 *
 * <p>Decisions in, the newest change per pod (uid) out; and which consumed offsets may be committed.
 * Pure and single-threaded: no clock (callers pass ticker times), no I/O.
 *
 * <p>A record is fully handled once every change it carried is handled: it produced an outcome,
 * or a newer change for the same pod superseded it (the newer one's outcome answers for both).
 * The committable offset of a partition is the first record not fully handled, so a restart
 * re-reads every change that has no outcome yet, and nothing before it.
 */
final class ScanningCoalescer {
  /** Newest change per pod uid, in arrival order of the pods' first pending change. */
  private final Map<String, PodWork> pending = new LinkedHashMap<>();

  private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
  private long seq;

  private static final class PartitionState {
    /** Offset → changes of that record not yet handled. */
    final TreeMap<Long, Integer> outstanding = new TreeMap<>();
    long next = -1;
    long committed = -1;

    long committable() {
      return outstanding.isEmpty() ? next : outstanding.firstKey();
    }
  }

  /** Takes every change of the decision read at {@code source@offset}. */
  void add(TopicPartition source, long offset, NodeDecision decision) {
    PartitionState state = seen(source, offset);
    int count = 0;
    for (PodChange change : decision.changes()) {
      PodWork work = PodWork.of(++seq, decision, change, source, offset);
      PodWork superseded = pending.remove(change.uid());
      if (superseded != null) {
        release(superseded);
      }
      pending.put(change.uid(), work);
      count++;
    }
    if (count > 0) {
      state.outstanding.merge(offset, count, Integer::sum);
    }
  }

  /** A record with nothing to do (unreadable and dead-lettered, or without changes). */
  void skip(TopicPartition source, long offset) {
    seen(source, offset);
  }

  /** The changes that may be tried at {@code nowNanos}, oldest first. */
  List<PodWork> ready(long nowNanos) {
    List<PodWork> out = new ArrayList<>();
    for (PodWork work : pending.values()) {
      if (work.notBeforeNanos() <= nowNanos) {
        out.add(work);
      }
    }
    return out;
  }

  /** When the earliest change waiting for a retry becomes ready; empty when none waits. */
  OptionalLong nextRetryNanos() {
    return pending.values().stream().mapToLong(PodWork::notBeforeNanos)
        .filter(t -> t != Long.MIN_VALUE).min();
  }

  /** The change produced its outcome. A change superseded meanwhile was already released. */
  void handled(PodWork work) {
    if (pending.remove(work.uid(), work)) {
      release(work);
    }
  }

  /** The change is tried again after {@code notBeforeNanos}, unless something newer replaced it. */
  void retryLater(PodWork work, long notBeforeNanos) {
    pending.replace(work.uid(), work, work.retriedAfter(notBeforeNanos));
  }

  /** Forgets partitions this consumer no longer owns; their pending changes go to the new owner. */
  void revoke(Collection<TopicPartition> revoked) {
    for (Iterator<PodWork> it = pending.values().iterator(); it.hasNext(); ) {
      if (revoked.contains(it.next().source())) {
        it.remove();
      }
    }
    revoked.forEach(partitions::remove);
  }

  /** Offsets that moved since the last {@link #committed} call, ready for {@code commitSync}. */
  Map<TopicPartition, OffsetAndMetadata> committable() {
    return committable(partitions.keySet());
  }

  Map<TopicPartition, OffsetAndMetadata> committable(Collection<TopicPartition> of) {
    Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
    for (TopicPartition tp : of) {
      PartitionState state = partitions.get(tp);
      if (state != null && state.next >= 0 && state.committable() > state.committed) {
        out.put(tp, new OffsetAndMetadata(state.committable()));
      }
    }
    return out;
  }

  void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
    offsets.forEach((tp, offset) -> {
      PartitionState state = partitions.get(tp);
      if (state != null) {
        state.committed = Math.max(state.committed, offset.offset());
      }
    });
  }

  int pendingCount() {
    return pending.size();
  }

  private PartitionState seen(TopicPartition source, long offset) {
    PartitionState state = partitions.computeIfAbsent(source, tp -> {
      PartitionState fresh = new PartitionState();
      fresh.committed = offset; // the group's position when we got the partition: nothing to commit
      return fresh;
    });
    state.next = Math.max(state.next, offset + 1);
    return state;
  }

  private void release(PodWork work) {
    PartitionState state = partitions.get(work.source());
    if (state == null) {
      return;
    }
    state.outstanding.computeIfPresent(work.offset(), (offset, left) -> left == 1 ? null : left - 1);
  }
}
