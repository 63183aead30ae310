package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HeadroomConfig singleton → {@link ClusterConfig} on the compacted {@code config} topic (key
 * {@value HeadroomKeys#CONFIG_NAME}), through {@link LastGoodConfig} (config.md):
 *
 * <ul>
 *   <li>valid → published (if it differs from what was published);
 *   <li>invalid → refused: logged with the one-line reason, counted, nothing published, so the
 *       last good config stays in force downstream;
 *   <li>deleted, or no object (or no CRD) when this instance starts leading → tombstone: the
 *       defaults (dry-run);
 *   <li>an object with another name is refused the same way and changes nothing.
 * </ul>
 * After a restart with an invalid object in the cluster nothing is published: the topic still
 * holds the last good config.
 */
public final class ConfigTracker {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigTracker.class);
  private static final JsonSerde<ClusterConfig> SERDE = HeadroomSerdes.config();
  private static final Object TOMBSTONE = new Object();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private LastGoodConfig state = LastGoodConfig.INITIAL; // guarded by this
  private Object lastSent; // ClusterConfig, TOMBSTONE or null (nothing yet); guarded by this

  public ConfigTracker(Topics topics, KafkaSink sink, IngestMetrics metrics) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
  }

  public synchronized void changed(GenericKubernetesResource object) {
    metrics.event("config");
    String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    LastGoodConfig next = state.offer(object);
    if (next.refused()) {
      metrics.refusal();
      LOG.warn("HeadroomConfig({}) refused, config generation {} stays in force: {}",
          name, state.config().generation(), next.refusal());
      if (HeadroomKeys.CONFIG_NAME.equals(name)) {
        state = next;
      }
      return;
    }
    if (state.config().generation() != next.config().generation() || state.refused()) {
      LOG.info("HeadroomConfig({}) generation {} accepted", name, next.config().generation());
    }
    state = next;
    publish(state.config());
  }

  public synchronized void deleted(GenericKubernetesResource object) {
    metrics.event("config");
    if (object.getMetadata() != null && HeadroomKeys.CONFIG_NAME.equals(object.getMetadata().getName())) {
      LOG.info("HeadroomConfig({}) deleted: defaults (dry-run) in force", HeadroomKeys.CONFIG_NAME);
      state = state.deleted();
      publish(TOMBSTONE);
    }
  }

  /** Publishes the config in force again (new leader, or Kafka lost records). */
  public synchronized void republishAll() {
    lastSent = null;
    if (state.config().generation() > 0) {
      publish(state.config());
    } else if (!state.refused()) {
      publish(TOMBSTONE);
    }
  }

  /** The config in force and the last refusal, if any. */
  public synchronized LastGoodConfig state() {
    return state;
  }

  private void publish(Object value) {
    if (Objects.equals(lastSent, value)) {
      metrics.churn("config");
      return;
    }
    lastSent = value;
    byte[] bytes = value == TOMBSTONE ? null : SERDE.serialize(topics.config(), (ClusterConfig) value);
    if (sink.offer(topics.config(), HeadroomKeys.CONFIG_NAME, bytes)) {
      metrics.published(value == TOMBSTONE ? "config-deleted" : "config");
    }
  }
}
