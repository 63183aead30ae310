package dev.kubeheadroom.topology;

import java.time.Instant;
import java.util.Arrays;

/**
 * The debouncer's candidates (a time, a node) in a binary heap ordered by time, then node name:
 * the order a {@code PriorityQueue} of records gave, in primitive columns. Polls come in the same
 * sequence (the order is total; equal candidates are indistinguishable), without a record and
 * two {@code Instant}s chased per comparison (DueQueueTest holds it to the PriorityQueue).
 */
final class DueQueue {
  private long[] seconds = new long[64];
  private int[] nanos = new int[64];
  private String[] nodes = new String[64];
  private int size;

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  void clear() {
    Arrays.fill(nodes, 0, size, null);
    size = 0;
  }

  void add(Instant at, String node) {
    if (size == nodes.length) {
      seconds = Arrays.copyOf(seconds, size * 2);
      nanos = Arrays.copyOf(nanos, size * 2);
      nodes = Arrays.copyOf(nodes, size * 2);
    }
    long s = at.getEpochSecond();
    int n = at.getNano();
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (compare(s, n, node, parent) >= 0) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, s, n, node);
  }

  /** Whether the first candidate's time is not after {@code now} (false when empty). */
  boolean headDueAt(Instant now) {
    if (size == 0) {
      return false;
    }
    long s = now.getEpochSecond();
    return seconds[0] < s || (seconds[0] == s && nanos[0] <= now.getNano());
  }

  /** Takes the first candidate out; its node. */
  String poll() {
    String head = nodes[0];
    int last = --size;
    long s = seconds[last];
    int n = nanos[last];
    String node = nodes[last];
    nodes[last] = null;
    if (last > 0) {
      int i = 0;
      int half = last >>> 1;
      while (i < half) {
        int child = 2 * i + 1;
        int right = child + 1;
        if (right < last && compareAt(right, child) < 0) {
          child = right;
        }
        if (compare(s, n, node, child) <= 0) {
          break;
        }
        move(child, i);
        i = child;
      }
      set(i, s, n, node);
    }
    return head;
  }

  /** (s, n, node) against the candidate at {@code i}. */
  private int compare(long s, int n, String node, int i) {
    if (s != seconds[i]) {
      return s < seconds[i] ? -1 : 1;
    }
    if (n != nanos[i]) {
      return n < nanos[i] ? -1 : 1;
    }
    return node.compareTo(nodes[i]);
  }

  private int compareAt(int a, int b) {
    return compare(seconds[a], nanos[a], nodes[a], b);
  }

  private void move(int from, int to) {
    set(to, seconds[from], nanos[from], nodes[from]);
  }

  private void set(int i, long s, int n, String node) {
    seconds[i] = s;
    nanos[i] = n;
    nodes[i] = node;
  }
}
