package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HeadroomConfig singleton → {@code ClusterConfig} on the compacted {@code config} topic (key
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

  private final ClusterProjector projector;
  private final IngestMetrics metrics;
  private final Store<GenericKubernetesResource> objects;
  private Evaluation evaluated; // the cluster object last judged; null: none; guarded by projector

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

  /** @param objects the HeadroomConfig informer's cache; null when the API is not served */
  ConfigTracker(ClusterProjector projector, IngestMetrics metrics, Store<GenericKubernetesResource> objects) {
    this.projector = projector;
    this.metrics = metrics;
    this.objects = objects;
  }

  /**
   * The HeadroomConfig named {@code name} as the cache has it now, judged; gone, the defaults
   * when it is {@value HeadroomKeys#CONFIG_NAME}. Called by the {@link IngestLoop} only, under the
   * projector's monitor.
   */
  void reconcile(String name) {
    GenericKubernetesResource object = objects == null ? null : objects.getByKey(name);
    if (object == null) {
      if (HeadroomKeys.CONFIG_NAME.equals(name)) {
        LOG.info("HeadroomConfig({}) deleted: defaults (dry-run) in force", HeadroomKeys.CONFIG_NAME);
        evaluated = null;
        count(projector.configDeleted());
      }
      return;
    }
    boolean cluster = HeadroomKeys.CONFIG_NAME.equals(name);
    if (cluster && alreadyEvaluated(object)) {
      return; // same spec generation (a status write or a resync): nothing new to judge
    }
    LastGoodConfig before = projector.configState();
    ClusterProjector.ConfigVerdict verdict = projector.config(object);
    LastGoodConfig next = verdict.state();
    if (cluster) {
      evaluated = new Evaluation(uid(object), generation(object), next.refusal());
    }
    if (next.refused()) {
      metrics.refusal();
      LOG.warn("HeadroomConfig({}) refused, config generation {} stays in force: {}",
          name, before.config().generation(), next.refusal());
      return;
    }
    if (before.config().generation() != next.config().generation() || before.refused()) {
      LOG.info("HeadroomConfig({}) generation {} accepted", name, next.config().generation());
    }
    count(verdict.outcome());
  }

  /** Publishes the config in force again (new leader, or Kafka lost records); under the monitor. */
  void republish() {
    count(projector.republishConfig());
  }

  /** The verdict on the {@code cluster} object as last seen; empty when there is none. */
  public Optional<Evaluation> evaluation() {
    synchronized (projector) {
      return Optional.ofNullable(evaluated);
    }
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
  public LastGoodConfig state() {
    synchronized (projector) {
      return projector.configState();
    }
  }

  private void count(ClusterProjector.Outcome outcome) {
    if (outcome == ClusterProjector.Outcome.UNCHANGED) {
      metrics.churn("config");
    }
  }
}
