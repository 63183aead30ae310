package dev.kubeheadroom.topology.booking;

import java.util.Arrays;

/**
 * A node's pods by uid, sorted, immutable, in chunks of at most {@link #MAX} (uids and entries in
 * parallel arrays per chunk): adding, changing or removing one pod copies its chunk and the
 * chunk index, not every pod. One flat pair of arrays cost a copy of the node's every pod per
 * event, so a node's events cost the square of its pod count (20,000 pods on a node: most of a
 * replay); here an event costs {@code MAX} plus the chunk count.
 */
final class PodChunks {
  /** A chunk splits in two above this: 20,000 pods make about 300 chunks. */
  static final int MAX = 128;
  static final PodChunks EMPTY = new PodChunks(new String[0][], new PodEntry[0][], 0);

  private final String[][] uids;
  private final PodEntry[][] entries;
  private final int size;

  private PodChunks(String[][] uids, PodEntry[][] entries, int size) {
    this.uids = uids;
    this.entries = entries;
    this.size = size;
  }

  /** Sorted parallel arrays, cut into chunks of {@code MAX / 2} (room to grow before a split). */
  static PodChunks of(String[] sortedUids, PodEntry[] sortedEntries) {
    int n = sortedUids.length;
    if (n == 0) {
      return EMPTY;
    }
    int step = MAX / 2;
    int count = (n + step - 1) / step;
    String[][] u = new String[count][];
    PodEntry[][] e = new PodEntry[count][];
    for (int c = 0; c < count; c++) {
      int from = c * step;
      int to = Math.min(n, from + step);
      u[c] = Arrays.copyOfRange(sortedUids, from, to);
      e[c] = Arrays.copyOfRange(sortedEntries, from, to);
    }
    return new PodChunks(u, e, n);
  }

  int size() {
    return size;
  }

  /** The chunk {@code uid} is in or belongs in: the last whose first uid is not above it (0 when none is). */
  private int chunkOf(String uid) {
    int lo = 0;
    int hi = uids.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (uids[mid][0].compareTo(uid) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  PodEntry get(String uid) {
    if (size == 0) {
      return null;
    }
    int c = chunkOf(uid);
    int at = Arrays.binarySearch(uids[c], uid);
    return at >= 0 ? entries[c][at] : null;
  }

  /** These pods with {@code uid} mapped to {@code entry}. */
  PodChunks with(String uid, PodEntry entry) {
    if (size == 0) {
      return new PodChunks(new String[][] {{uid}}, new PodEntry[][] {{entry}}, 1);
    }
    int c = chunkOf(uid);
    String[] u = uids[c];
    PodEntry[] e = entries[c];
    int at = Arrays.binarySearch(u, uid);
    if (at >= 0) {
      PodEntry[] next = e.clone();
      next[at] = entry;
      PodEntry[][] chunks = entries.clone();
      chunks[c] = next;
      return new PodChunks(uids, chunks, size);
    }
    int insert = -at - 1;
    String[] nu = new String[u.length + 1];
    PodEntry[] ne = new PodEntry[u.length + 1];
    System.arraycopy(u, 0, nu, 0, insert);
    System.arraycopy(e, 0, ne, 0, insert);
    nu[insert] = uid;
    ne[insert] = entry;
    System.arraycopy(u, insert, nu, insert + 1, u.length - insert);
    System.arraycopy(e, insert, ne, insert + 1, u.length - insert);
    if (nu.length <= MAX) {
      return replace(c, 1, new String[][] {nu}, new PodEntry[][] {ne}, size + 1);
    }
    int half = nu.length / 2; // a full chunk splits in two halves
    return replace(c, 1, new String[][] {Arrays.copyOfRange(nu, 0, half), Arrays.copyOfRange(nu, half, nu.length)},
        new PodEntry[][] {Arrays.copyOfRange(ne, 0, half), Arrays.copyOfRange(ne, half, ne.length)}, size + 1);
  }

  /** These pods without {@code uid} ({@code this} when it is not here). */
  PodChunks without(String uid) {
    if (size == 0) {
      return this;
    }
    int c = chunkOf(uid);
    String[] u = uids[c];
    int at = Arrays.binarySearch(u, uid);
    if (at < 0) {
      return this;
    }
    if (u.length == 1) {
      return size == 1 ? EMPTY : replace(c, 1, new String[0][], new PodEntry[0][], size - 1);
    }
    String[] nu = new String[u.length - 1];
    PodEntry[] ne = new PodEntry[u.length - 1];
    System.arraycopy(u, 0, nu, 0, at);
    System.arraycopy(entries[c], 0, ne, 0, at);
    System.arraycopy(u, at + 1, nu, at, nu.length - at);
    System.arraycopy(entries[c], at + 1, ne, at, nu.length - at);
    return replace(c, 1, new String[][] {nu}, new PodEntry[][] {ne}, size - 1);
  }

  /** The chunks with {@code count} of them from {@code c} replaced by {@code u}/{@code e}. */
  private PodChunks replace(int c, int count, String[][] u, PodEntry[][] e, int newSize) {
    int n = uids.length - count + u.length;
    String[][] nu = new String[n][];
    PodEntry[][] ne = new PodEntry[n][];
    System.arraycopy(uids, 0, nu, 0, c);
    System.arraycopy(entries, 0, ne, 0, c);
    System.arraycopy(u, 0, nu, c, u.length);
    System.arraycopy(e, 0, ne, c, e.length);
    System.arraycopy(uids, c + count, nu, c + u.length, uids.length - c - count);
    System.arraycopy(entries, c + count, ne, c + e.length, entries.length - c - count);
    return new PodChunks(nu, ne, newSize);
  }

  /** Every uid, in order, into {@code out} (of {@link #size()}). */
  void uidsInto(String[] out) {
    int i = 0;
    for (String[] chunk : uids) {
      System.arraycopy(chunk, 0, out, i, chunk.length);
      i += chunk.length;
    }
  }

  /** Every entry, in uid order, into {@code out} (of {@link #size()}). */
  void entriesInto(PodEntry[] out) {
    int i = 0;
    for (PodEntry[] chunk : entries) {
      System.arraycopy(chunk, 0, out, i, chunk.length);
      i += chunk.length;
    }
  }
}
