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
 * immutable, in two parallel arrays. Every event makes a new booking; a changed pod costs a copy
 * of the value array (the uids are shared), a new or removed pod a copy of both, where a
 * {@code TreeMap} copy allocated an entry object per pod per event. Reads are a binary search,
 * iteration walks the arrays. Equal (as a {@link Map}) to the {@code TreeMap} it stands for.
 */
final class PodTable extends AbstractMap<String, PodEntry> implements SortedMap<String, PodEntry> {
  static final PodTable EMPTY = new PodTable(new String[0], new PodEntry[0]);

  private final String[] uids;
  private final PodEntry[] entries;

  private PodTable(String[] uids, PodEntry[] entries) {
    this.uids = uids;
    this.entries = entries;
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
    return new PodTable(uids, entries);
  }

  /** These pods with {@code uid} mapped to {@code entry} (added, or replacing its entry). */
  PodTable with(String uid, PodEntry entry) {
    int at = Arrays.binarySearch(uids, uid);
    if (at >= 0) {
      PodEntry[] next = entries.clone();
      next[at] = entry;
      return new PodTable(uids, next);
    }
    int insert = -at - 1;
    String[] nextUids = new String[uids.length + 1];
    PodEntry[] next = new PodEntry[uids.length + 1];
    System.arraycopy(uids, 0, nextUids, 0, insert);
    System.arraycopy(entries, 0, next, 0, insert);
    nextUids[insert] = uid;
    next[insert] = entry;
    System.arraycopy(uids, insert, nextUids, insert + 1, uids.length - insert);
    System.arraycopy(entries, insert, next, insert + 1, uids.length - insert);
    return new PodTable(nextUids, next);
  }

  /** These pods with each of {@code edits}' uids that is here mapped to its new entry. */
  PodTable replacing(Map<String, PodEntry> edits) {
    PodEntry[] next = entries.clone();
    for (Map.Entry<String, PodEntry> e : edits.entrySet()) {
      int at = Arrays.binarySearch(uids, e.getKey());
      if (at < 0) {
        return copyOf(withAll(edits)); // a new uid: not what a decision edits, but kept correct
      }
      next[at] = e.getValue();
    }
    return new PodTable(uids, next);
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
    int at = Arrays.binarySearch(uids, uid);
    if (at < 0) {
      return this;
    }
    if (uids.length == 1) {
      return EMPTY;
    }
    String[] nextUids = new String[uids.length - 1];
    PodEntry[] next = new PodEntry[nextUids.length];
    System.arraycopy(uids, 0, nextUids, 0, at);
    System.arraycopy(entries, 0, next, 0, at);
    System.arraycopy(uids, at + 1, nextUids, at, nextUids.length - at);
    System.arraycopy(entries, at + 1, next, at, nextUids.length - at);
    return new PodTable(nextUids, next);
  }

  /** These pods without {@code gone}'s uids ({@code this} when none of them is here). */
  PodTable without(Collection<String> gone) {
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
        next[j] = entries[i];
        j++;
      }
    }
    return new PodTable(nextUids, next);
  }

  @Override
  public int size() {
    return uids.length;
  }

  @Override
  public boolean isEmpty() {
    return uids.length == 0;
  }

  @Override
  public PodEntry get(Object uid) {
    int at = Arrays.binarySearch(uids, uid);
    return at >= 0 ? entries[at] : null;
  }

  @Override
  public boolean containsKey(Object uid) {
    return Arrays.binarySearch(uids, uid) >= 0;
  }

  @Override
  public Comparator<? super String> comparator() {
    return null; // natural order
  }

  @Override
  public String firstKey() {
    if (uids.length == 0) {
      throw new NoSuchElementException();
    }
    return uids[0];
  }

  @Override
  public String lastKey() {
    if (uids.length == 0) {
      throw new NoSuchElementException();
    }
    return uids[uids.length - 1];
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
        return new Walk<>(uids);
      }

      @Override
      public int size() {
        return uids.length;
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
        return new Walk<>(entries);
      }

      @Override
      public int size() {
        return entries.length;
      }
    };
  }

  @Override
  public Set<Map.Entry<String, PodEntry>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, PodEntry>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < uids.length;
          }

          @Override
          public Map.Entry<String, PodEntry> next() {
            if (next >= uids.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(uids[i], entries[i]);
          }
        };
      }

      @Override
      public int size() {
        return uids.length;
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
