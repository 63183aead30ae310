package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Decisions in, the newest change per pod (uid) out; and which consumed offsets may be committed.
 * Pure and single-threaded: no clock (callers pass ticker times), no I/O.
 *
 * <p>A record is fully handled once every change it carried is handled: it produced an outcome,
 * or a newer change for the same pod superseded it (the newer one's outcome answers for both).
 * The committable offset of a partition is the first record not fully handled, so a restart
 * re-reads every change that has no outcome yet, and nothing before it.
 */
final class Coalescer {
  /** Newest change per pod uid. */
  private final Map<String, PodWork> pending = new HashMap<>();

  /** Ready changes read at a time by {@link #visitReady}: a round usually stops within the first. */
  private static final int CHUNK = 64;

  /*
   * The same changes indexed so that a round reads only what it returns (a backlog of tens of
   * thousands waiting for tokens used to be rescanned whole on every round): those with no retry
   * time by arrival seq (always ready), those waiting for a retry by (not-before, seq).
   */
  private final TreeMap<Long, PodWork> fresh = new TreeMap<>();
  private final TreeSet<PodWork> retrying = new TreeSet<>(
      Comparator.comparingLong(PodWork::notBeforeNanos).thenComparingLong(PodWork::seq));
  private int dryRun;

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
      PodWork superseded = remove(change.uid());
      if (superseded != null) {
        release(superseded);
      }
      put(work);
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

  /** The changes that may be tried at {@code nowNanos}, in arrival order (seq). */
  List<PodWork> ready(long nowNanos) {
    return ready(nowNanos, Long.MIN_VALUE, Integer.MAX_VALUE);
  }

  /**
   * At most {@code max} of the changes that may be tried at {@code nowNanos} and arrived after
   * {@code afterSeq}, in arrival order: a caller that stops when its budget is spent reads only
   * what it tries. Costs the retried changes ready now (sorted) plus what it returns.
   */
  List<PodWork> ready(long nowNanos, long afterSeq, int max) {
    List<PodWork> retried = new ArrayList<>();
    for (PodWork work : retrying) {
      if (work.notBeforeNanos() > nowNanos) {
        break;
      }
      if (work.seq() > afterSeq) {
        retried.add(work);
      }
    }
    retried.sort(Comparator.comparingLong(PodWork::seq));
    List<PodWork> out = new ArrayList<>(Math.min(max, fresh.size() + retried.size()));
    Iterator<PodWork> a = fresh.tailMap(afterSeq, false).values().iterator();
    Iterator<PodWork> b = retried.iterator();
    PodWork x = a.hasNext() ? a.next() : null;
    PodWork y = b.hasNext() ? b.next() : null;
    while (out.size() < max && (x != null || y != null)) {
      if (y == null || (x != null && x.seq() < y.seq())) {
        out.add(x);
        x = a.hasNext() ? a.next() : null;
      } else {
        out.add(y);
        y = b.hasNext() ? b.next() : null;
      }
    }
    return out;
  }

  /**
   * Visits the changes ready at {@code nowNanos} in arrival order until {@code visit} returns
   * false, reading the backlog a chunk at a time; the visitor may hand changes back ({@link
   * #handled}, {@link #retryLater}): a change is visited once.
   */
  void visitReady(long nowNanos, Predicate<PodWork> visit) {
    long after = Long.MIN_VALUE;
    for (List<PodWork> chunk; !(chunk = ready(nowNanos, after, CHUNK)).isEmpty(); ) {
      for (PodWork work : chunk) {
        after = work.seq();
        if (!visit.test(work)) {
          return;
        }
      }
    }
  }

  /**
   * The least of {@code ceiling} and {@code wait} over the changes ready at {@code nowNanos},
   * reading no further once it reaches {@code floor} (a bound the caller knows none is below).
   */
  long leastReady(long nowNanos, long ceiling, long floor, ToLongFunction<PodWork> wait) {
    long[] least = {ceiling};
    visitReady(nowNanos, work -> {
      least[0] = Math.min(least[0], wait.applyAsLong(work));
      return least[0] > floor;
    });
    return least[0];
  }

  /** When the earliest change waiting for a retry becomes ready (already past: it is ready); empty when none waits. */
  OptionalLong nextRetryNanos() {
    return retrying.isEmpty() ? OptionalLong.empty() : OptionalLong.of(retrying.first().notBeforeNanos());
  }

  /** Whether some pending change was decided under dry-run (it costs fewer requests than a resize). */
  boolean anyDryRun() {
    return dryRun > 0;
  }

  /** The change produced its outcome. A change superseded meanwhile was already released. */
  void handled(PodWork work) {
    if (work.equals(pending.get(work.uid()))) {
      remove(work.uid());
      release(work);
    }
  }

  /** The change is tried again after {@code notBeforeNanos}, unless something newer replaced it. */
  void retryLater(PodWork work, long notBeforeNanos) {
    if (work.equals(pending.get(work.uid()))) {
      remove(work.uid());
      put(work.retriedAfter(notBeforeNanos));
    }
  }

  /**
   * The change waits until {@code notBeforeNanos} without counting a try, unless something newer
   * replaced it: its outcome could not be recorded, so it is not handled yet.
   */
  void postpone(PodWork work, long notBeforeNanos) {
    if (work.equals(pending.get(work.uid()))) {
      remove(work.uid());
      put(work.postponedUntil(notBeforeNanos));
    }
  }

  /** Forgets partitions this consumer no longer owns; their pending changes go to the new owner. */
  void revoke(Collection<TopicPartition> revoked) {
    List<String> gone = pending.values().stream().filter(w -> revoked.contains(w.source())).map(PodWork::uid).toList();
    gone.forEach(this::remove);
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

  private void put(PodWork work) {
    pending.put(work.uid(), work);
    if (work.notBeforeNanos() == Long.MIN_VALUE) {
      fresh.put(work.seq(), work);
    } else {
      retrying.add(work);
    }
    dryRun += work.dryRun() ? 1 : 0;
  }

  private PodWork remove(String uid) {
    PodWork work = pending.remove(uid);
    if (work != null) {
      if (work.notBeforeNanos() == Long.MIN_VALUE) {
        fresh.remove(work.seq());
      } else {
        retrying.remove(work);
      }
      dryRun -= work.dryRun() ? 1 : 0;
    }
    return work;
  }

  private void release(PodWork work) {
    PartitionState state = partitions.get(work.source());
    if (state == null) {
      return;
    }
    state.outstanding.computeIfPresent(work.offset(), (offset, left) -> left == 1 ? null : left - 1);
  }
}
