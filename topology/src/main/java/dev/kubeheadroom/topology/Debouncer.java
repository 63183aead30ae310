package dev.kubeheadroom.topology;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of a task's nodes are due for a computation. A node is due once {@code debouncePeriod}
 * (plus a small jitter derived from its name, so replays stay deterministic) has passed since its
 * last change, or {@code maxDebounceDelay} since it first became dirty, so constant churn cannot
 * starve it; or when a wake-up it asked for (a backoff expiry) comes. In memory only: after a
 * restart every owned node is re-evaluated anyway.
 *
 * <p>Candidates wait in a queue ordered by the earliest time they can be due, so a tick costs
 * O(due · log n) rather than a scan of every dirty node; a candidate whose node changed again
 * since it was queued is put back at its new due time.
 */
final class Debouncer {
  /** When a dirty node first and last changed; {@code last} moves in place (a touch per event). */
  private static final class Dirty {
    final Instant first;
    Instant last;

    Dirty(Instant first, Instant last) {
      this.first = first;
      this.last = last;
    }
  }

  /** A node pool's own debounce knobs (HeadroomConfig spec.pools). */
  record Timing(Duration debounce, Duration maxDelay) {}

  private final Map<String, Dirty> dirty = new HashMap<>();
  private final Map<String, Instant> wakes = new HashMap<>();
  private final DueQueue queue = new DueQueue();
  private final Map<String, Timing> poolTimings = new HashMap<>();
  private Duration debounce = Duration.ZERO;
  private Duration maxDelay = Duration.ZERO;
  /** {@code debounce}'s jitter window, kept with it: {@code Duration.dividedBy} goes through BigDecimal. */
  private Duration jitterWindow = Duration.ZERO;

  /**
   * The node's own debounce knobs from its pool, or null for the cluster's. Takes effect from
   * the node's next change (a node already waiting keeps the due time it was queued with until
   * it is met, then is re-queued at the new one).
   */
  void timing(String node, Timing timing) {
    if (timing == null) {
      poolTimings.remove(node);
    } else {
      poolTimings.put(node, timing);
    }
  }

  void touch(String node, Instant at) {
    Dirty old = dirty.get(node);
    if (old == null) {
      dirty.put(node, new Dirty(at, at));
      queue.add(dueAt(node, at, at), node);
    } else if (at.isAfter(old.last)) {
      old.last = at; // its queued candidate is now early: re-queued when met
    }
  }

  /** Due at {@code at} unless already waiting for its debounce. */
  void wakeIfClean(String node, Instant at) {
    if (!dirty.containsKey(node)) {
      wakeAt(node, at);
    }
  }

  void wakeAt(String node, Instant at) {
    if (at == null) {
      wakes.remove(node);
      return;
    }
    Instant current = wakes.get(node);
    if (current == null || at.isBefore(current)) {
      wakes.put(node, at);
      queue.add(at, node);
    }
  }

  void forget(String node) {
    dirty.remove(node);
    wakes.remove(node); // its queued candidates are skipped when met
    poolTimings.remove(node);
  }

  boolean isEmpty() {
    return dirty.isEmpty() && wakes.isEmpty();
  }

  /** The nodes due at {@code now}, sorted by name, taken out of the schedule. */
  List<String> takeDue(Instant now, Duration debouncePeriod, Duration maxDebounceDelay) {
    if (!debouncePeriod.equals(debounce) || !maxDebounceDelay.equals(maxDelay)) {
      debounce = debouncePeriod;
      maxDelay = maxDebounceDelay;
      jitterWindow = jitterWindow(debouncePeriod);
      requeue(); // the knobs changed: every queued due time may have moved
    }
    if (!queue.headDueAt(now)) {
      return List.of(); // most ticks: nothing due, nothing made
    }
    // A due node is taken out of the schedule at once, so another candidate of it this tick finds
    // neither a change nor a wake and is dropped: the list holds each node once without a set.
    List<String> due = new ArrayList<>();
    while (queue.headDueAt(now)) {
      String node = queue.poll();
      Dirty d = dirty.get(node);
      Instant wake = wakes.get(node);
      Instant dirtyDue = d == null ? null : dueAt(node, d.first, d.last);
      if ((wake != null && !now.isBefore(wake)) || (dirtyDue != null && !now.isBefore(dirtyDue))) {
        due.add(node);
        dirty.remove(node);
        wakes.remove(node);
      } else if (dirtyDue != null) {
        queue.add(dirtyDue, node); // changed since queued: due later
      }
    }
    due.sort(null); // by name, as before
    return due;
  }

  private void requeue() {
    queue.clear();
    dirty.forEach((node, d) -> queue.add(dueAt(node, d.first, d.last), node));
    wakes.forEach((node, at) -> queue.add(at, node));
  }

  /** min(last + debounce + jitter, first + maxDelay), with the node pool's knobs where it has its own. */
  private Instant dueAt(String node, Instant first, Instant last) {
    Timing own = poolTimings.isEmpty() ? null : poolTimings.get(node);
    Duration period = own == null ? debounce : own.debounce();
    Duration window = own == null ? jitterWindow : jitterWindow(period);
    Instant quiet = last.plus(period).plusNanos(spreadNanos(node, window)); // = plus(spread(…)), no Duration
    Instant cap = first.plus(own == null ? maxDelay : own.maxDelay());
    return quiet.isBefore(cap) ? quiet : cap;
  }

  /** Up to 10% of the debounce, a pure function of the node name: spreads flushes, replays equal. */
  static Duration jitter(String node, Duration debounce) {
    return spread(node, jitterWindow(debounce));
  }

  private static Duration jitterWindow(Duration debounce) {
    return debounce.dividedBy(10);
  }

  /**
   * A point in {@code [0, window)} that is a pure function of the node name: the nodes of a task
   * land evenly over the window, and every replay puts each node at the same point.
   */
  static Duration spread(String node, Duration window) {
    return Duration.ofNanos(spreadNanos(node, window));
  }

  private static long spreadNanos(String node, Duration window) {
    long fraction = Integer.toUnsignedLong(node.hashCode() * 0x9E3779B1) % 1000;
    return window.toNanos() * fraction / 1000;
  }
}
