package dev.kubeheadroom.topology;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which of a task's nodes are due for a computation. A node is due once {@code debouncePeriod}
 * (plus a small jitter derived from its name, so replays stay deterministic) has passed since its
 * last change, or {@code maxDebounceDelay} since it first became dirty, so constant churn cannot
 * starve it; or when a wake-up it asked for (a backoff expiry) comes. In memory only: after a
 * restart every owned node is re-evaluated anyway.
 */
final class Debouncer {
  private record Dirty(Instant first, Instant last) {}

  private final Map<String, Dirty> dirty = new HashMap<>();
  private final Map<String, Instant> wakes = new HashMap<>();

  void touch(String node, Instant at) {
    dirty.merge(node, new Dirty(at, at),
        (old, now) -> new Dirty(old.first(), now.last().isAfter(old.last()) ? now.last() : old.last()));
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
    } else {
      wakes.merge(node, at, (a, b) -> a.isBefore(b) ? a : b);
    }
  }

  void forget(String node) {
    dirty.remove(node);
    wakes.remove(node);
  }

  boolean isEmpty() {
    return dirty.isEmpty() && wakes.isEmpty();
  }

  /** The nodes due at {@code now}, sorted by name, taken out of the schedule. */
  List<String> takeDue(Instant now, Duration debounce, Duration maxDelay) {
    TreeSet<String> due = new TreeSet<>();
    for (Map.Entry<String, Dirty> e : dirty.entrySet()) {
      Dirty d = e.getValue();
      Instant quietAt = d.last().plus(debounce).plus(jitter(e.getKey(), debounce));
      if (!now.isBefore(quietAt) || !now.isBefore(d.first().plus(maxDelay))) {
        due.add(e.getKey());
      }
    }
    for (Map.Entry<String, Instant> e : wakes.entrySet()) {
      if (!now.isBefore(e.getValue())) {
        due.add(e.getKey());
      }
    }
    for (String node : due) {
      dirty.remove(node);
      wakes.remove(node);
    }
    return new ArrayList<>(due);
  }

  /** Up to 10% of the debounce, a pure function of the node name: spreads flushes, replays equal. */
  static Duration jitter(String node, Duration debounce) {
    long fraction = Integer.toUnsignedLong(node.hashCode() * 0x9E3779B1) % 1000;
    return Duration.ofNanos(debounce.toNanos() / 10 * fraction / 1000);
  }
}
