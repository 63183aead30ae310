package dev.kubeheadroom.replay;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A key-value store of live objects for {@link InlineTopology}: no serdes, no cache, no
 * changelog, because an inline run lives and dies in one process. Keys are strings, ordered as
 * Kafka orders their UTF-8 bytes for every key Headroom writes (names, uids, NUL separators).
 *
 * <p>Writes land in a hash map and reach the sorted map only when something reads the store in
 * key order (a scan, a range, a count): a replay writes a pod entry per event and scans a node's
 * pods only when a booking is not cached, so most keys are written many times between scans, and
 * a sorted insert per write (a dozen string comparisons over keys sharing the node's name) was a
 * tenth of the replay's main thread. A point read looks at the unsorted writes first, so every
 * read sees every write, as before.
 */
final class ObjectStore<V> implements KeyValueStore<String, V> {
  /** Unsorted writes past this many are sorted in, so a long replay's removed keys do not pile up. */
  static final int MAX_UNSORTED = 1 << 16;
  /** An unsorted write that removes its key. */
  private static final Object REMOVED = new Object();

  private final String name;
  private final TreeMap<String, V> entries = new TreeMap<>();
  /** Writes not yet in {@link #entries}: the value, or {@link #REMOVED}. */
  private final HashMap<String, Object> unsorted = new HashMap<>();

  ObjectStore(String name) {
    this.name = name;
  }

  @Override
  public void put(String key, V value) {
    unsorted.put(key, value == null ? REMOVED : value);
    if (unsorted.size() > MAX_UNSORTED) {
      sorted();
    }
  }

  @Override
  public V putIfAbsent(String key, V value) {
    V old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public void putAll(List<KeyValue<String, V>> list) {
    list.forEach(kv -> put(kv.key, kv.value));
  }

  @Override
  public V delete(String key) {
    V old = get(key);
    put(key, null);
    return old;
  }

  @Override
  @SuppressWarnings("unchecked") // unsorted holds only V and REMOVED
  public V get(String key) {
    Object written = unsorted.get(key);
    if (written != null) {
      return written == REMOVED ? null : (V) written;
    }
    return entries.get(key);
  }

  /** The entries in key order, with every write so far. */
  @SuppressWarnings("unchecked") // unsorted holds only V and REMOVED
  private TreeMap<String, V> sorted() {
    if (!unsorted.isEmpty()) {
      for (Map.Entry<String, Object> w : unsorted.entrySet()) {
        if (w.getValue() == REMOVED) {
          entries.remove(w.getKey());
        } else {
          entries.put(w.getKey(), (V) w.getValue());
        }
      }
      unsorted.clear();
    }
    return entries;
  }

  @Override
  public KeyValueIterator<String, V> range(String from, String to) {
    NavigableMap<String, V> view = sorted();
    if (from != null && to != null) {
      view = from.compareTo(to) > 0 ? new TreeMap<>() : view.subMap(from, true, to, true);
    } else if (from != null) {
      view = view.tailMap(from, true);
    } else if (to != null) {
      view = view.headMap(to, true);
    }
    return iterator(view.entrySet().iterator(), null);
  }

  @Override
  public KeyValueIterator<String, V> all() {
    return iterator(sorted().entrySet().iterator(), null);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<String, V> prefixScan(P prefix, PS serializer) {
    String p = prefix.toString();
    return iterator(sorted().tailMap(p, true).entrySet().iterator(), p);
  }

  @Override
  public long approximateNumEntries() {
    return sorted().size();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    // nothing to restore: an inline run starts empty
  }

  @Override
  public void close() {
    entries.clear();
    unsorted.clear();
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  /** Iterates {@code it}, stopping at the first key without {@code prefix} (when given). */
  private static <V> KeyValueIterator<String, V> iterator(Iterator<Map.Entry<String, V>> it, String prefix) {
    return new KeyValueIterator<>() {
      private Map.Entry<String, V> next = advance();

      private Map.Entry<String, V> advance() {
        if (!it.hasNext()) {
          return null;
        }
        Map.Entry<String, V> e = it.next();
        return prefix == null || e.getKey().startsWith(prefix) ? e : null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public KeyValue<String, V> next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        KeyValue<String, V> kv = KeyValue.pair(next.getKey(), next.getValue());
        next = advance();
        return kv;
      }

      @Override
      public String peekNextKey() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        return next.getKey();
      }

      @Override
      public void close() {}
    };
  }
}
