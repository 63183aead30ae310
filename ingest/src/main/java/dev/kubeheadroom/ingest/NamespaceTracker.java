package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Namespaces and LimitRanges → the {@link ClusterProjector} ({@link NamespaceInfo} on the
 * compacted {@code namespaces} topic when a namespace's labels or LimitRange cap changed, a
 * tombstone when it is deleted).
 */
public final class NamespaceTracker {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceTracker.class);

  private final ClusterProjector projector;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Namespace> namespaces;
  private final Indexer<LimitRange> limitRanges;

  NamespaceTracker(ClusterProjector projector, KafkaSink sink, IngestMetrics metrics,
      Indexer<Namespace> namespaces, Indexer<LimitRange> limitRanges) {
    this.projector = projector;
    this.sink = sink;
    this.metrics = metrics;
    this.namespaces = namespaces;
    this.limitRanges = limitRanges;
  }

  public void namespaceChanged(Namespace namespace) {
    synchronized (projector) {
      metrics.event("namespace");
      reconcile(namespace.getMetadata().getName(), true);
    }
  }

  public void namespaceDeleted(Namespace namespace) {
    synchronized (projector) {
      metrics.event("namespace");
      String name = namespace.getMetadata().getName();
      projector.namespaceDeleted(name);
      reconcile(name, false);
    }
  }

  public void limitRangeChanged(LimitRange limitRange) {
    limitRange(limitRange, false);
  }

  public void limitRangeDeleted(LimitRange limitRange) {
    limitRange(limitRange, true);
  }

  private void limitRange(LimitRange limitRange, boolean deleted) {
    synchronized (projector) {
      metrics.event("limitrange");
      try {
        count(projector.limitRange(limitRange, deleted), true);
      } catch (ProjectionException e) {
        invalid(e);
      }
    }
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

  /** Publishes every cached namespace again (new leader, or Kafka lost records). */
  public void republishAll() throws InterruptedException {
    synchronized (projector) {
      projector.forgetPublishedNamespaces();
    }
    for (String name : namespaces.listKeys()) {
      sink.awaitRoom();
      synchronized (projector) {
        reconcile(name, false);
      }
    }
  }

  private void reconcile(String name, boolean countChurn) {
    Namespace namespace = namespaces.getByKey(name);
    if (namespace == null) {
      return; // not in the cache yet, or deleted (its DELETED event publishes the tombstone)
    }
    try {
      count(projector.namespace(namespace), countChurn);
    } catch (ProjectionException e) {
      invalid(e);
    }
  }

  private void count(ClusterProjector.Outcome outcome, boolean countChurn) {
    if (outcome == ClusterProjector.Outcome.UNCHANGED && countChurn) {
      metrics.churn("namespace");
    }
  }

  private void invalid(ProjectionException e) {
    metrics.invalid("namespace");
    LOG.warn("not published: {}", e.getMessage());
  }
}
