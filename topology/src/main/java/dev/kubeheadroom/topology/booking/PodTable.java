package dev.kubeheadroom.topology.booking;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A node's pods by uid, in uid order (String's natural order, as the {@code TreeMap} it replaces),
 * immutable, held in {@link PodChunks}: adding, changing or removing a pod copies one chunk and the
 * chunk index, so a node's events cost in proportion to their number, not to it times the node's
 * pods. Reads are two binary searches; iteration and the rest of the map's views walk a flat copy
 * made once per table, when first asked for (a decision reads a table whole; an event does not).
 * Equal (as a {@link Map}) to the {@code TreeMap} it stands for.
 */
final class PodTable extends AbstractMap<String, PodEntry> implements SortedMap<String, PodEntry> {
  static final PodTable EMPTY = new PodTable(PodChunks.EMPTY);

  /** The table as two flat arrays, for its views. */
  private record Flat(String[] uids, PodEntry[] entries) {}

  private final PodChunks chunks;
  /** Made on first use; a benign race (a record's final fields publish it whole). */
  private Flat flat;

  private PodTable(PodChunks chunks) {
    this.chunks = chunks;
  }

  private static PodTable of(String[] uids, PodEntry[] entries) {
    return uids.length == 0 ? EMPTY : new PodTable(PodChunks.of(uids, entries));
  }

  private Flat flat() {
    Flat f = flat;
    if (f == null) {
      String[] u = new String[chunks.size()];
      PodEntry[] e = new PodEntry[u.length];
      chunks.uidsInto(u);
      chunks.entriesInto(e);
      f = new Flat(u, e);
      flat = f;
    }
    return f;
  }

  /** The same mappings, sorted by uid (a {@link PodTable} is returned as it is). */
  static PodTable copyOf(Map<String, PodEntry> pods) {
    if (pods instanceof PodTable table) {
      return table;
    }
    if (pods.isEmpty()) {
      return EMPTY;
    }
    // A TreeMap with the natural order (what bookings are built from) is already sorted.
    Map<String, PodEntry> sorted = pods instanceof SortedMap<String, PodEntry> s && s.comparator() == null
        ? pods : new TreeMap<>(pods);
    String[] uids = new String[sorted.size()];
    PodEntry[] entries = new PodEntry[uids.length];
    int i = 0;
    for (Map.Entry<String, PodEntry> e : sorted.entrySet()) {
      uids[i] = e.getKey();
      entries[i] = e.getValue();
      i++;
    }
    return of(uids, entries);
  }

  /** These pods with {@code uid} mapped to {@code entry} (added, or replacing its entry). */
  PodTable with(String uid, PodEntry entry) {
    return new PodTable(chunks.with(uid, entry));
  }

  /** These pods with each of {@code edits}' uids that is here mapped to its new entry. */
  PodTable replacing(Map<String, PodEntry> edits) {
    Flat f = flat();
    PodEntry[] next = f.entries().clone();
    for (Map.Entry<String, PodEntry> e : edits.entrySet()) {
      int at = Arrays.binarySearch(f.uids(), e.getKey());
      if (at < 0) {
        return copyOf(withAll(edits)); // a new uid: not what a decision edits, but kept correct
      }
      next[at] = e.getValue();
    }
    return of(f.uids(), next);
  }

  private TreeMap<String, PodEntry> withAll(Map<String, PodEntry> edits) {
    TreeMap<String, PodEntry> all = new TreeMap<>(this);
    all.putAll(edits);
    return all;
  }

  /**
   * These pods without {@code uid} ({@code this} when it is not here): {@link #without(Collection)}
   * for one pod (a deletion, a pod turned terminal) with one search and no set.
   */
  PodTable without(String uid) {
    PodChunks next = chunks.without(uid);
    return next == chunks ? this : next.size() == 0 ? EMPTY : new PodTable(next);
  }

  /** These pods without {@code gone}'s uids ({@code this} when none of them is here). */
  PodTable without(Collection<String> gone) {
    Flat f = flat();
    String[] uids = f.uids();
    boolean[] drop = new boolean[uids.length];
    int dropped = 0;
    for (String uid : gone) {
      int at = Arrays.binarySearch(uids, uid);
      if (at >= 0 && !drop[at]) {
        drop[at] = true;
        dropped++;
      }
    }
    if (dropped == 0) {
      return this;
    }
    if (dropped == uids.length) {
      return EMPTY;
    }
    String[] nextUids = new String[uids.length - dropped];
    PodEntry[] next = new PodEntry[nextUids.length];
    int j = 0;
    for (int i = 0; i < uids.length; i++) {
      if (!drop[i]) {
        nextUids[j] = uids[i];
        next[j] = f.entries()[i];
        j++;
      }
    }
    return of(nextUids, next);
  }

  @Override
  public int size() {
    return chunks.size();
  }

  @Override
  public boolean isEmpty() {
    return chunks.size() == 0;
  }

  @Override
  public PodEntry get(Object uid) {
    return uid instanceof String s ? chunks.get(s) : null;
  }

  @Override
  public boolean containsKey(Object uid) {
    return get(uid) != null;
  }

  @Override
  public Comparator<? super String> comparator() {
    return null; // natural order
  }

  @Override
  public String firstKey() {
    if (flat().uids().length == 0) {
      throw new NoSuchElementException();
    }
    return flat().uids()[0];
  }

  @Override
  public String lastKey() {
    if (flat().uids().length == 0) {
      throw new NoSuchElementException();
    }
    return flat().uids()[flat().uids().length - 1];
  }

  // Range views are never taken on the hot path: a sorted copy answers them.
  @Override
  public SortedMap<String, PodEntry> subMap(String fromKey, String toKey) {
    return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(this).subMap(fromKey, toKey));
  }

  @Override
  public SortedMap<String, PodEntry> headMap(String toKey) {
    return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(this).headMap(toKey));
  }

  @Override
  public SortedMap<String, PodEntry> tailMap(String fromKey) {
    return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(this).tailMap(fromKey));
  }

  @Override
  public Set<String> keySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<String> iterator() {
        return new Walk<>(flat().uids());
      }

      @Override
      public int size() {
        return flat().uids().length;
      }

      @Override
      public boolean contains(Object uid) {
        return containsKey(uid);
      }
    };
  }

  @Override
  public Collection<PodEntry> values() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<PodEntry> iterator() {
        return new Walk<>(flat().entries());
      }

      @Override
      public int size() {
        return flat().entries().length;
      }
    };
  }

  @Override
  public Set<Map.Entry<String, PodEntry>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, PodEntry>> iterator() {
        Flat f = flat();
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < flat().uids().length;
          }

          @Override
          public Map.Entry<String, PodEntry> next() {
            if (next >= flat().uids().length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(f.uids()[i], f.entries()[i]);
          }
        };
      }

      @Override
      public int size() {
        return flat().uids().length;
      }
    };
  }

  /** An array, in order, read-only. */
  private static final class Walk<T> implements Iterator<T> {
    private final T[] items;
    private int next;

    Walk(T[] items) {
      this.items = items;
    }

    @Override
    public boolean hasNext() {
      return next < items.length;
    }

    @Override
    public T next() {
      if (next >= items.length) {
        throw new NoSuchElementException();
      }
      return items[next++];
    }
  }
}
