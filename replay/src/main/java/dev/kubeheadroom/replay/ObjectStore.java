package dev.kubeheadroom.replay;

import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A key-value store of live objects for {@link InlineTopology}: no serdes, no cache, no
 * changelog, because an inline run lives and dies in one process. Keys are strings, ordered as
 * Kafka orders their UTF-8 bytes for every key Headroom writes (names, uids, NUL separators).
 */
final class ObjectStore<V> extends InlineStore<V> {
  private final TreeMap<String, V> entries = new TreeMap<>();

  ObjectStore(String name) {
    super(name);
  }

  @Override
  public void put(String key, V value) {
    if (value == null) {
      entries.remove(key);
    } else {
      entries.put(key, value);
    }
  }

  @Override
  public V get(String key) {
    return entries.get(key);
  }

  @Override
  public KeyValueIterator<String, V> range(String from, String to) {
    return range(entries, from, to);
  }

  @Override
  public KeyValueIterator<String, V> all() {
    return iterator(entries.entrySet().iterator(), null);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<String, V> prefixScan(P prefix, PS serializer) {
    return prefixScan(entries, prefix.toString());
  }

  /** {@link KeyValueStore#range} over {@code entries}: both ends inclusive, null unbounded. */
  static <V> KeyValueIterator<String, V> range(NavigableMap<String, V> entries, String from, String to) {
    NavigableMap<String, V> view = entries;
    if (from != null && to != null) {
      view = from.compareTo(to) > 0 ? new TreeMap<>() : entries.subMap(from, true, to, true);
    } else if (from != null) {
      view = entries.tailMap(from, true);
    } else if (to != null) {
      view = entries.headMap(to, true);
    }
    return iterator(view.entrySet().iterator(), null);
  }

  /** {@link KeyValueStore#prefixScan} over {@code entries}: the keys starting with {@code prefix}. */
  static <V> KeyValueIterator<String, V> prefixScan(NavigableMap<String, V> entries, String prefix) {
    return iterator(entries.tailMap(prefix, true).entrySet().iterator(), prefix);
  }

  @Override
  public long approximateNumEntries() {
    return entries.size();
  }

  @Override
  public void close() {
    entries.clear();
  }

  /** Iterates {@code it}, stopping at the first key without {@code prefix} (when given). */
  static <V> KeyValueIterator<String, V> iterator(Iterator<Map.Entry<String, V>> it, String prefix) {
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
