package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The pod informer's cache, holding {@link PodFieldStripper stripped} copies. fabric8 informers
 * have no transform hook; a custom {@link ItemStore} set with {@code informer.itemStore(...)}
 * before start is where objects enter the cache. Keys are {@code namespace/name}, as fabric8's
 * default store. Thread-safe: the informer writes, the {@link IngestLoop} reads.
 */
public final class StrippedPodStore implements ItemStore<Pod> {
  private final PodFieldStripper stripper;
  private final Map<String, Pod> pods = new ConcurrentHashMap<>();

  public StrippedPodStore(PodFieldStripper stripper) {
    this.stripper = stripper;
  }

  @Override
  public String getKey(Pod pod) {
    return Cache.metaNamespaceKeyFunc(pod);
  }

  @Override
  public Pod put(String key, Pod pod) {
    return pods.put(key, stripper.strip(pod));
  }

  @Override
  public Pod remove(String key) {
    return pods.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return pods.keySet().stream();
  }

  @Override
  public Stream<Pod> values() {
    return pods.values().stream();
  }

  @Override
  public int size() {
    return pods.size();
  }

  @Override
  public Pod get(String key) {
    return pods.get(key);
  }
}
