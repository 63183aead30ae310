package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HeadroomConfig singleton → {@link ClusterConfig} on the compacted {@code config} topic (key
 * {@value HeadroomKeys#CONFIG_NAME}), through {@link LastGoodConfig} (docs/design/config.md):
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
 *
 * <p>It also remembers the verdict on the {@code cluster} object last evaluated
 * ({@link #evaluation()}), which {@link ConfigStatusWriter} reports in the object's status. An
 * update that leaves the generation alone (a status write, a resync) is not judged again, so a
 * refused spec is logged and counted once per generation.
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
  private Evaluation evaluated; // the cluster object last judged; null: none; guarded by this

  /**
   * The verdict on one generation of the {@code cluster} object.
   *
   * @param uid the object's uid (empty if it has none)
   * @param generation its {@code metadata.generation} (0 if it has none)
   * @param refusal the one-line reason it was refused; null when it was accepted
   */
  public record Evaluation(String uid, long generation, String refusal) {
    public boolean accepted() {
      return refusal == null;
    }
  }

  public ConfigTracker(Topics topics, KafkaSink sink, IngestMetrics metrics) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
  }

  public synchronized void changed(GenericKubernetesResource object) {
    metrics.event("config");
    String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    boolean cluster = HeadroomKeys.CONFIG_NAME.equals(name);
    if (cluster && alreadyEvaluated(object)) {
      return; // same spec generation (a status write or a resync): nothing new to judge
    }
    LastGoodConfig next = state.offer(object);
    if (cluster) {
      evaluated = new Evaluation(uid(object), generation(object), next.refusal());
    }
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
      evaluated = null;
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

  /** The verdict on the {@code cluster} object as last seen; empty when there is none. */
  public synchronized Optional<Evaluation> evaluation() {
    return Optional.ofNullable(evaluated);
  }

  private boolean alreadyEvaluated(GenericKubernetesResource object) {
    return evaluated != null && object.getMetadata().getGeneration() != null
        && evaluated.generation() == object.getMetadata().getGeneration()
        && evaluated.uid().equals(uid(object));
  }

  private static String uid(GenericKubernetesResource object) {
    String uid = object.getMetadata().getUid();
    return uid == null ? "" : uid;
  }

  private static long generation(GenericKubernetesResource object) {
    Long generation = object.getMetadata().getGeneration();
    return generation == null ? 0 : generation;
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
