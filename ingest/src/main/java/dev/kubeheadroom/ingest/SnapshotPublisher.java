package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods → the {@code pods} topic, keyed by node: a {@link PodSnapshot} when a field a decision
 * depends on changed ({@link PodSnapshot#sameBooking}; status churn is dropped), a
 * {@link PodRemoved} on delete, and {@link NodeSync}s on request. Each published snapshot is also
 * shown to {@link InfeasibleEvents} (the {@code ResizeInfeasible} event).
 *
 * <p>Level-triggered: an event only names a pod; what is published is projected from the
 * informer's cache as it is <em>now</em>, under one lock, compared with what was last published
 * for that uid. So the newest state is published last whatever order events and resyncs run in,
 * and an unbound pod (nothing published) is published as soon as an event shows it bound.
 */
public final class SnapshotPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotPublisher.class);
  private static final JsonSerde<NodeEvent> SERDE = HeadroomSerdes.nodeEvents();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Pod> pods;
  private final VpaIndex vpas;
  private final InfeasibleEvents infeasible;

  private final Map<String, PodSnapshot> published = new HashMap<>(); // by uid; guarded by this
  private volatile int deferred; // written under this

  SnapshotPublisher(Topics topics, KafkaSink sink, IngestMetrics metrics, Indexer<Pod> pods, VpaIndex vpas,
      InfeasibleEvents infeasible) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
    this.pods = pods;
    this.vpas = vpas;
    this.infeasible = infeasible;
  }

  /** An ADDED or MODIFIED event for {@code pod}: publish its cached state if it matters. */
  public synchronized void changed(Pod pod) {
    metrics.event("pod");
    reconcile(Cache.metaNamespaceKeyFunc(pod), true);
  }

  /** A DELETED event: {@link PodRemoved} if its uid was published; then the key's current pod. */
  public synchronized void deleted(Pod pod) {
    metrics.event("pod");
    String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
    if (uid != null) {
      infeasible.forget(uid);
    }
    PodSnapshot last = uid == null ? null : published.get(uid);
    if (last != null) {
      forget(last);
      metrics.podGone(last.namespace(), last.name());
      send(last.node(), new PodRemoved(last.uid(), last.namespace(), last.name(), last.node()), "pod-removed");
    }
    reconcile(Cache.metaNamespaceKeyFunc(pod), false);
  }

  /** Re-judges every pod of {@code namespace} (a VPA there changed). */
  public synchronized void namespaceChanged(String namespace) {
    for (Pod pod : pods.byIndex(Cache.NAMESPACE_INDEX, namespace)) {
      reconcile(Cache.metaNamespaceKeyFunc(pod), false);
    }
  }

  /**
   * Publishes every cached pod again, as if nothing had been published: after this instance
   * became leader, or after Kafka lost records. Paced by the sink's buffer.
   */
  public void republishAll() throws InterruptedException {
    synchronized (this) {
      published.clear();
      deferred = 0;
    }
    for (String key : pods.listKeys()) {
      sink.awaitRoom();
      synchronized (this) {
        reconcile(key, false);
      }
    }
  }

  /**
   * Publishes one {@link NodeSync} per node: every node in {@code nodes} (an empty set when no
   * pod is left on it) and every node a published pod is on, listing the uids published so far.
   */
  public synchronized void syncNodes(Collection<String> nodes) {
    Map<String, List<String>> uids = new TreeMap<>();
    for (String node : nodes) {
      uids.put(node, new ArrayList<>());
    }
    for (PodSnapshot s : published.values()) {
      uids.computeIfAbsent(s.node(), n -> new ArrayList<>()).add(s.uid());
    }
    // A node of many pods is synced in uid-range chunks, each under the sink's record budget:
    // one record over Kafka's max.request.size would be refused on every resync (NodeSync).
    int budget = sink.recordBudget();
    uids.forEach((node, list) -> NodeSync.chunks(node, list, budget)
        .forEach(chunk -> send(node, chunk, "node-sync")));
    LOG.debug("published node sync: {} nodes, {} pods", uids.size(), published.size());
  }

  /** The uids published per node (for tests and diagnostics). */
  public synchronized Map<String, TreeSet<String>> publishedByNode() {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    published.values().forEach(s -> out.computeIfAbsent(s.node(), n -> new TreeSet<>()).add(s.uid()));
    return out;
  }

  /** Pods whose last snapshot shows the kubelet deferred a resize. */
  public int deferredPods() {
    return deferred;
  }

  private void reconcile(String key, boolean countChurn) {
    Pod pod = pods.getByKey(key);
    if (pod == null) {
      return; // deleted since; its DELETED event publishes the removal
    }
    Optional<PodSnapshot> next;
    try {
      next = project(pod);
    } catch (ProjectionException e) {
      metrics.invalid("pod");
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (next.isEmpty()) {
      return; // not bound yet: nothing to book
    }
    PodSnapshot snapshot = next.get();
    PodSnapshot last = published.get(snapshot.uid());
    if (snapshot.sameBooking(last)) {
      if (countChurn) {
        metrics.churn("pod");
      }
      return;
    }
    if (last != null) {
      forget(last);
    }
    published.put(snapshot.uid(), snapshot);
    if (snapshot.resize() == ResizeStatus.DEFERRED) {
      deferred++;
    }
    metrics.kubeletResize(snapshot.namespace(), snapshot.name(), snapshot.resize());
    infeasible.observe(snapshot, pod); // a change of resize status always changes the snapshot
    send(snapshot.node(), snapshot, "pod");
  }

  private Optional<PodSnapshot> project(Pod pod) {
    Optional<PodSnapshot> plain = PodProjection.project(pod, false);
    if (plain.isPresent() && vpas.controlsLimits(plain.get().namespace(), plain.get().owners())) {
      return PodProjection.project(pod, true);
    }
    return plain;
  }

  private void forget(PodSnapshot last) {
    published.remove(last.uid());
    if (last.resize() == ResizeStatus.DEFERRED) {
      deferred--;
    }
  }

  private void send(String node, NodeEvent event, String record) {
    if (sink.offer(topics.pods(), node, SERDE.serialize(topics.pods(), event.withEpoch(sink.epoch())))) {
      metrics.published(record);
    }
  }
}
