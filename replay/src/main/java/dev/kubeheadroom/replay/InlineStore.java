package dev.kubeheadroom.replay;

import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What every store of an {@link InlineTopology} has in common: live objects in memory, nothing
 * to restore (an inline run starts empty and dies with its process), and the compound writes
 * expressed by {@link #get} and {@link #put} (a null value removes), as Kafka's in-memory store
 * defines them. Subclasses hold the entries and answer reads and scans.
 */
abstract class InlineStore<V> implements KeyValueStore<String, V> {
  private final String name;

  InlineStore(String name) {
    this.name = name;
  }

  @Override
  public final V putIfAbsent(String key, V value) {
    V old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public final void putAll(List<KeyValue<String, V>> list) {
    list.forEach(kv -> put(kv.key, kv.value));
  }

  @Override
  public final V delete(String key) {
    V old = get(key);
    if (old != null) {
      put(key, null);
    }
    return old;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final void init(StateStoreContext context, StateStore root) {
    // nothing to restore: an inline run starts empty
  }

  @Override
  public final boolean persistent() {
    return false;
  }

  @Override
  public final boolean isOpen() {
    return true;
  }
}
