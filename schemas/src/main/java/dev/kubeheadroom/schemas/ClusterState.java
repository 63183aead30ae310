package dev.kubeheadroom.schemas;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The cluster-wide state as the compacted {@code namespaces} and {@code config} topics hold it:
 * every namespace ingest published (key: its name) and the HeadroomConfig (key
 * {@value HeadroomKeys#CONFIG_NAME}), plus whether the topics have been read to where they ended
 * when reading began ({@link #warm}). What a record means is {@link #read}, the one rule the
 * topology's global tables apply too:
 *
 * <ul>
 *   <li>a record without a key, or whose value does not decode, is unreadable: skipped (the last
 *       good value stays) and reported;
 *   <li>a tombstone removes the key: a namespace is gone, the config is back to
 *       {@link ClusterConfig#DEFAULTS} (dry-run);
 *   <li>on the config topic only the key {@value HeadroomKeys#CONFIG_NAME} is the config.
 * </ul>
 *
 * <p>Written by one thread ({@link ClusterStateReader}'s), read by any: each read is one volatile
 * or concurrent-map lookup.
 */
public final class ClusterState {
  /** What one record on a compacted topic does to the table it feeds. */
  public sealed interface Change<V> {
    record Put<V>(String key, V value) implements Change<V> {}

    record Delete<V>(String key) implements Change<V> {}

    record Unreadable<V>(String reason) implements Change<V> {
      @Override
      public Optional<String> skipped() {
        return Optional.of(reason);
      }
    }

    /** Why the record is skipped; empty when it changes the table. */
    default Optional<String> skipped() {
      return Optional.empty();
    }
  }

  private final String namespacesTopic;
  private final UnaryOperator<ClusterConfig> view;
  private final Map<String, NamespaceInfo> namespaces = new ConcurrentHashMap<>();
  private volatile ClusterConfig config;
  private volatile boolean warm;

  /** The state of the default topics, configs as written. */
  public ClusterState() {
    this(Topics.defaults(), UnaryOperator.identity());
  }

  /**
   * @param view applied to every config taken, the defaults included (e.g. the demo's
   *     {@code c -> c.speedUp(k)}); identity for the config as written
   */
  public ClusterState(Topics topics, UnaryOperator<ClusterConfig> view) {
    this.namespacesTopic = topics.namespaces();
    this.view = Objects.requireNonNull(view, "view");
    this.config = view.apply(ClusterConfig.DEFAULTS);
  }

  /** A record's meaning on a compacted topic of {@code type} values: put, delete, or unreadable. */
  public static <V> Change<V> read(String key, byte[] value, Class<V> type) {
    if (key == null) {
      return new Change.Unreadable<>("record without a key");
    }
    if (value == null) {
      return new Change.Delete<>(key);
    }
    try {
      return new Change.Put<>(key, JsonCodec.decode(value, type));
    } catch (SchemaException e) {
      return new Change.Unreadable<>(e.getMessage());
    }
  }

  /**
   * Takes one record of the namespaces or the config topic.
   *
   * @return why the record was skipped; empty when it was taken (or is not the config's key)
   */
  public Optional<String> apply(String topic, String key, byte[] value) {
    if (namespacesTopic.equals(topic)) {
      Change<NamespaceInfo> change = read(key, value, NamespaceInfo.class);
      if (change instanceof Change.Put<NamespaceInfo> put) {
        namespaces.put(put.key(), put.value()); // by key, as the topology's table
      } else if (change instanceof Change.Delete<NamespaceInfo> delete) {
        removeNamespace(delete.key());
      }
      return change.skipped();
    }
    if (key != null && !HeadroomKeys.CONFIG_NAME.equals(key)) {
      return Optional.empty(); // only the singleton is the config
    }
    Change<ClusterConfig> change = read(key, value, ClusterConfig.class);
    if (change instanceof Change.Put<ClusterConfig> put) {
      putConfig(put.value());
    } else if (change instanceof Change.Delete<ClusterConfig>) {
      removeConfig();
    }
    return change.skipped();
  }

  public void putNamespace(NamespaceInfo info) {
    namespaces.put(info.name(), info);
  }

  public void removeNamespace(String name) {
    namespaces.remove(name);
  }

  public void putConfig(ClusterConfig value) {
    config = view.apply(Objects.requireNonNull(value, "value"));
  }

  /** The config object was deleted (tombstone): back to the defaults, which are dry-run. */
  public void removeConfig() {
    config = view.apply(ClusterConfig.DEFAULTS);
  }

  /** The config in force: the last one on the config topic, or the defaults (dry-run). */
  public ClusterConfig config() {
    return config;
  }

  /** The namespace as ingest last published it; empty when the topic has no record for it. */
  public Optional<NamespaceInfo> namespace(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(namespaces.get(name));
  }

  public int namespaceCount() {
    return namespaces.size();
  }

  /** True once both topics have been read up to their end offsets when reading began. */
  public boolean warm() {
    return warm;
  }

  /** Warm stays true afterwards: later lag means stale state, which is still the last known. */
  public void markWarm() {
    warm = true;
  }
}
