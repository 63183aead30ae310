package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the webhook knows of the cluster: the namespaces and the HeadroomConfig, exactly as the
 * compacted {@code namespaces} and {@code config} topics hold them (the same state the topology
 * sees), plus whether those topics have been read to their end since start ({@link #warm()}).
 *
 * <p>Written by one {@link TopicStateReader} thread, read by the HTTP threads; each read is a
 * single volatile or concurrent-map lookup. Until it is warm the handler admits every pod
 * unchanged: an empty view would otherwise look like "no namespace is managed" or "defaults
 * (dry-run)" and silently skip pods that should be seeded.
 */
public final class AdmissionState {
  private final Map<String, NamespaceInfo> namespaces = new ConcurrentHashMap<>();
  private volatile ClusterConfig config = ClusterConfig.DEFAULTS;
  private volatile boolean warm;

  /** The config in force: the last record on the config topic, or the defaults (dry-run). */
  public ClusterConfig config() {
    return config;
  }

  /** The namespace as last published; empty when the topic has no record for it. */
  public Optional<NamespaceInfo> namespace(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(namespaces.get(name));
  }

  /** True once every partition of both topics has been read up to its end offset at start. */
  public boolean warm() {
    return warm;
  }

  public int namespaceCount() {
    return namespaces.size();
  }

  public void putNamespace(NamespaceInfo info) {
    Objects.requireNonNull(info, "info");
    namespaces.put(info.name(), info);
  }

  public void removeNamespace(String name) {
    namespaces.remove(name);
  }

  public void putConfig(ClusterConfig value) {
    config = Objects.requireNonNull(value, "value");
  }

  /** The config object was deleted (tombstone): back to the defaults, which are dry-run. */
  public void removeConfig() {
    config = ClusterConfig.DEFAULTS;
  }

  /** Warm stays true afterwards: later lag means stale state, which is still the last known. */
  public void markWarm() {
    warm = true;
  }
}
