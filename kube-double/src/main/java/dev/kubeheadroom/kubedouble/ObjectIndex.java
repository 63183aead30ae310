package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where each stored object is, by resource, namespace and name. fabric8's CRUD store finds one
 * object by testing every stored object's attributes ({@code findResource}, GET by name): at
 * the design point's 155,000 objects that is a scan per create, GET, patch and kubelet write,
 * so seeding and resizing the cluster was quadratic. etcd finds a key directly; so does this.
 *
 * <p>Kept by the dispatcher on every store write ({@code processEvent}, the one place the stock
 * store changes); {@link #find} checks each candidate against the store itself and the index is
 * rebuilt whenever its size drifts from the store's, so a write it missed costs a scan, never a
 * wrong answer.
 */
final class ObjectIndex {
  private final Map<AttributeSet, String> store;
  /** {@code plural/namespace/name} → the attribute sets stored under it (one, bar API groups sharing a plural). */
  private final Map<String, List<AttributeSet>> byName = new ConcurrentHashMap<>();
  private volatile int size;

  /** @param store the CRUD store (a synchronized map) */
  ObjectIndex(Map<AttributeSet, String> store) {
    this.store = store;
  }

  /** One write: {@code before} left the store (null: a create), {@code after} entered it (null: a delete). */
  synchronized void moved(AttributeSet before, AttributeSet after) {
    if (before != null && remove(before)) {
      size--;
    }
    if (after != null && !contains(after)) {
      byName.computeIfAbsent(key(after), k -> new CopyOnWriteArrayList<>()).add(after);
      size++;
    }
  }

  /**
   * The stored entry {@code query} selects, as the stock scan would find it, or null. A query
   * without a name, or without a namespace when no cluster-scoped object answers it, is a scan.
   */
  Map.Entry<AttributeSet, String> find(AttributeSet query) {
    String name = value(query, KubernetesAttributesExtractor.NAME);
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    if (name.isEmpty() || plural.isEmpty()) {
      return scan(query);
    }
    if (size != store.size()) {
      rebuild();
    }
    for (AttributeSet candidate : byName.getOrDefault(key(plural, value(query, KubernetesAttributesExtractor.NAMESPACE), name), List.of())) {
      String value = store.get(candidate);
      if (value != null && candidate.matches(query)) {
        return Map.entry(candidate, value);
      }
    }
    return query.containsKey(KubernetesAttributesExtractor.NAMESPACE) ? null : scan(query);
  }

  private Map.Entry<AttributeSet, String> scan(AttributeSet query) {
    synchronized (store) {
      for (Map.Entry<AttributeSet, String> entry : store.entrySet()) {
        if (entry.getKey().matches(query)) {
          return Map.entry(entry.getKey(), entry.getValue());
        }
      }
    }
    return null;
  }

  private synchronized void rebuild() {
    byName.clear();
    synchronized (store) {
      store.keySet().forEach(k -> byName.computeIfAbsent(key(k), x -> new CopyOnWriteArrayList<>()).add(k));
      size = store.size();
    }
  }

  private boolean remove(AttributeSet attributes) {
    List<AttributeSet> at = byName.get(key(attributes));
    return at != null && at.remove(attributes);
  }

  private boolean contains(AttributeSet attributes) {
    return byName.getOrDefault(key(attributes), List.of()).contains(attributes);
  }

  private static String key(AttributeSet attributes) {
    return key(value(attributes, KubernetesAttributesExtractor.PLURAL),
        value(attributes, KubernetesAttributesExtractor.NAMESPACE), value(attributes, KubernetesAttributesExtractor.NAME));
  }

  private static String key(String plural, String namespace, String name) {
    return plural + '/' + namespace + '/' + name;
  }

  private static String value(AttributeSet attributes, String key) {
    Attribute attribute = attributes.getAttribute(key);
    return attribute == null || attribute.getValues().isEmpty() ? "" : attribute.getValues().get(0).toString();
  }
}
