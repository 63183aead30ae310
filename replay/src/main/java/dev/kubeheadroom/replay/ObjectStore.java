package dev.kubeheadroom.replay;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.TreeSet;
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
 * <p>Values are found by hash; the sorted key index serves scans and changes only when a key comes
 * or goes, not when a value is rewritten, which most writes are (a pod's entry rewritten per
 * event): ordered lookups on node-prefixed keys were a twentieth of a replay.
 */
final class ObjectStore<V> implements KeyValueStore<String, V> {
  private final String name;
  private final Map<String, V> values = new HashMap<>();
  private final TreeSet<String> keys = new TreeSet<>();

  ObjectStore(String name) {
    this.name = name;
  }

  @Override
  public void put(String key, V value) {
    if (value == null) {
      delete(key);
    } else if (values.put(key, value) == null) {
      keys.add(key);
    }
  }

  @Override
  public V putIfAbsent(String key, V value) {
    V old = values.get(key);
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
    V old = values.remove(key);
    if (old != null) {
      keys.remove(key);
    }
    return old;
  }

  @Override
  public V get(String key) {
    return values.get(key);
  }

  @Override
  public KeyValueIterator<String, V> range(String from, String to) {
    NavigableSet<String> view = keys;
    if (from != null && to != null) {
      view = from.compareTo(to) > 0 ? new TreeSet<>() : keys.subSet(from, true, to, true);
    } else if (from != null) {
      view = keys.tailSet(from, true);
    } else if (to != null) {
      view = keys.headSet(to, true);
    }
    return iterator(view.iterator(), null);
  }

  @Override
  public KeyValueIterator<String, V> all() {
    return iterator(keys.iterator(), null);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<String, V> prefixScan(P prefix, PS serializer) {
    String p = prefix.toString();
    return iterator(keys.tailSet(p, true).iterator(), p);
  }

  @Override
  public long approximateNumEntries() {
    return values.size();
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
    values.clear();
    keys.clear();
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  /** Iterates the keys of {@code it} with their values, stopping at the first key without {@code prefix} (when given). */
  private KeyValueIterator<String, V> iterator(Iterator<String> it, String prefix) {
    return new KeyValueIterator<>() {
      private String next = advance();

      private String advance() {
        if (!it.hasNext()) {
          return null;
        }
        String key = it.next();
        return prefix == null || key.startsWith(prefix) ? key : null;
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
        KeyValue<String, V> kv = KeyValue.pair(next, values.get(next));
        next = advance();
        return kv;
      }

      @Override
      public String peekNextKey() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        return next;
      }

      @Override
      public void close() {}
    };
  }
}
