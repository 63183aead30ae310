package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.List;

/**
 * Namespace and LimitRange keys → the {@link ClusterProjector} ({@link NamespaceInfo} on the
 * compacted {@code namespaces} topic when a namespace's labels or LimitRange cap changed, a
 * tombstone when it is gone from the cache). Level-triggered like {@link SnapshotPublisher};
 * called by the {@link IngestLoop} only, under the projector's monitor.
 */
public final class NamespaceTracker {
  private final ClusterProjector projector;
  private final IngestMetrics metrics;
  private final Indexer<Namespace> namespaces;
  private final Indexer<LimitRange> limitRanges;

  NamespaceTracker(ClusterProjector projector, IngestMetrics metrics, Indexer<Namespace> namespaces,
      Indexer<LimitRange> limitRanges) {
    this.projector = projector;
    this.metrics = metrics;
    this.namespaces = namespaces;
    this.limitRanges = limitRanges;
  }

  /**
   * The namespace named {@code name} as the cache has it now: its info, or a tombstone when gone.
   *
   * @param countChurn an informer event named it: an info that changes nothing is churn
   */
  void namespace(String name, boolean countChurn) {
    Namespace namespace = namespaces.getByKey(name);
    if (namespace == null) {
      projector.namespaceDeleted(name);
      return;
    }
    Projected.counted(metrics, "namespace", countChurn, () -> projector.namespace(namespace));
  }

  /** The LimitRange of {@code key} added, changed or gone: its namespace's info again if that changed it. */
  void limitRange(String key) {
    LimitRange cached = limitRanges.getByKey(key);
    int slash = key.indexOf('/');
    LimitRange limitRange = cached != null ? cached : new LimitRangeBuilder().withNewMetadata()
        .withNamespace(key.substring(0, slash)).withName(key.substring(slash + 1)).endMetadata().build();
    Projected.counted(metrics, "namespace", true, () -> projector.limitRange(limitRange, cached == null));
  }

  /**
   * The namespace as the informer's cache has it now, or null (unknown, or not projectable). No
   * lock: it reads only the thread-safe caches (for the ResizeInfeasible event's managed check).
   */
  public NamespaceInfo current(String name) {
    Namespace namespace = namespaces.getByKey(name);
    if (namespace == null) {
      return null;
    }
    try {
      return NamespaceProjection.project(namespace, limitRanges.byIndex(Cache.NAMESPACE_INDEX, name));
    } catch (ProjectionException e) {
      return null;
    }
  }

  /** Forgets what was published: the next reconcile of each namespace publishes it again. */
  void forgetPublished() {
    projector.forgetPublishedNamespaces();
  }

  /** Names of the namespaces in the cache. */
  List<String> names() {
    return namespaces.listKeys();
  }
}
