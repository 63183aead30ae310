package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namespace plus its LimitRanges → {@link NamespaceInfo} on the compacted {@code namespaces}
 * topic (key: namespace). A change to either republishes the namespace if its labels or its
 * LimitRange cap changed; a deleted namespace becomes a tombstone.
 */
public final class NamespaceTracker {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceTracker.class);
  private static final JsonSerde<NamespaceInfo> SERDE = HeadroomSerdes.namespaces();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Namespace> namespaces;
  private final Indexer<LimitRange> limitRanges;
  private final Map<String, NamespaceInfo> published = new HashMap<>(); // guarded by this

  public NamespaceTracker(Topics topics, KafkaSink sink, IngestMetrics metrics,
      Indexer<Namespace> namespaces, Indexer<LimitRange> limitRanges) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
    this.namespaces = namespaces;
    this.limitRanges = limitRanges;
  }

  public synchronized void namespaceChanged(Namespace namespace) {
    metrics.event("namespace");
    reconcile(namespace.getMetadata().getName(), true);
  }

  public synchronized void namespaceDeleted(Namespace namespace) {
    metrics.event("namespace");
    String name = namespace.getMetadata().getName();
    if (published.remove(name) != null) {
      send(name, null, "namespace-deleted");
    }
    reconcile(name, false);
  }

  /** Any change to a LimitRange (added, changed, deleted) of its namespace. */
  public synchronized void limitRangeChanged(LimitRange limitRange) {
    metrics.event("limitrange");
    if (limitRange.getMetadata() != null && limitRange.getMetadata().getNamespace() != null) {
      reconcile(limitRange.getMetadata().getNamespace(), true);
    }
  }

  /**
   * The namespace as the informer's cache has it now, or null (unknown, or not projectable). No
   * lock: it reads only the thread-safe caches, so the pod publisher may ask under its own lock.
   */
  public NamespaceInfo current(String name) {
    Namespace namespace = namespaces.getByKey(name);
    if (namespace == null) {
      return null;
    }
    try {
      return project(namespace, name);
    } catch (ProjectionException e) {
      return null;
    }
  }

  /** The namespace with its LimitRanges as the informers' caches have them. */
  private NamespaceInfo project(Namespace namespace, String name) {
    return NamespaceProjection.project(namespace, limitRanges.byIndex(Cache.NAMESPACE_INDEX, name));
  }

  /** Publishes every cached namespace again (new leader, or Kafka lost records). */
  public void republishAll() throws InterruptedException {
    synchronized (this) {
      published.clear();
    }
    for (String name : namespaces.listKeys()) {
      sink.awaitRoom();
      synchronized (this) {
        reconcile(name, false);
      }
    }
  }

  private void reconcile(String name, boolean countChurn) {
    Namespace namespace = namespaces.getByKey(name);
    if (namespace == null) {
      return; // not in the cache yet, or deleted (its DELETED event publishes the tombstone)
    }
    NamespaceInfo info;
    try {
      info = project(namespace, name);
    } catch (ProjectionException e) {
      metrics.invalid("namespace");
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (info.equals(published.get(name))) {
      if (countChurn) {
        metrics.churn("namespace");
      }
      return;
    }
    published.put(name, info);
    send(name, info, "namespace");
  }

  private void send(String name, NamespaceInfo info, String record) {
    if (sink.offer(topics.namespaces(), name, SERDE.serialize(topics.namespaces(), info))) {
      metrics.published(record);
    }
  }
}
