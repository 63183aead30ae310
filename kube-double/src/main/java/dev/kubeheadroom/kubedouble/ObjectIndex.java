package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  /**
   * {@code plural/namespace} → the attribute sets stored in that namespaced collection: the
   * resize admission reads its namespace's LimitRanges and ResourceQuotas on every resize, a scan
   * of all 155,000 objects each at the design point (one resize a second on the double's event loop).
   */
  private final Map<String, Set<AttributeSet>> byCollection = new ConcurrentHashMap<>();
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
      add(after);
      size++;
    }
  }

  /**
   * The stored values of the namespaced collection {@code query} selects (plural and namespace,
   * no name), as the stock scan would find them, in no order; null when {@code query} is not one
   * (a name, or no namespace: the caller scans).
   */
  List<String> inCollection(AttributeSet query) {
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    String namespace = value(query, KubernetesAttributesExtractor.NAMESPACE);
    if (plural.isEmpty() || namespace.isEmpty() || !value(query, KubernetesAttributesExtractor.NAME).isEmpty()) {
      return null;
    }
    if (size != store.size()) {
      rebuild();
    }
    List<String> out = new ArrayList<>();
    for (AttributeSet candidate : byCollection.getOrDefault(plural + '/' + namespace, Set.of())) {
      String value = store.get(candidate);
      if (value != null && candidate.matches(query)) {
        out.add(value);
      }
    }
    return out;
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
      byCollection.clear();
      store.keySet().forEach(this::add);
      size = store.size();
    }
  }

  private void add(AttributeSet attributes) {
    byName.computeIfAbsent(key(attributes), k -> new CopyOnWriteArrayList<>()).add(attributes);
    byCollection.computeIfAbsent(collection(attributes), k -> ConcurrentHashMap.newKeySet()).add(attributes);
  }

  private boolean remove(AttributeSet attributes) {
    Set<AttributeSet> in = byCollection.get(collection(attributes));
    if (in != null) {
      in.remove(attributes);
    }
    List<AttributeSet> at = byName.get(key(attributes));
    return at != null && at.remove(attributes);
  }

  private static String collection(AttributeSet attributes) {
    return value(attributes, KubernetesAttributesExtractor.PLURAL) + '/' + value(attributes, KubernetesAttributesExtractor.NAMESPACE);
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
