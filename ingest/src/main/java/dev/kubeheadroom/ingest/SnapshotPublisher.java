package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.ProjectionException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods (and the VPAs that re-judge them) → the {@link ClusterProjector}, which decides what the
 * {@code pods} topic gets: a snapshot when a booking changed, a removal on delete, node syncs on
 * request.
 *
 * <p>Level-triggered: an event only names a pod; what is projected is the informer's cache as it
 * is <em>now</em>, under the projector's monitor. So the newest state is published last whatever
 * order events and resyncs run in, and an unbound pod (nothing published) is published as soon as
 * an event shows it bound.
 */
public final class SnapshotPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotPublisher.class);
  /** How full the buffer may get inside a node's pods during a re-publish. */
  static final double NEARLY_FULL = 0.75;

  private final ClusterProjector projector;
  private final IngestOutput output;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Pod> pods;
  private final InfeasibleEvents infeasible;
  /**
   * Keys a running re-publish has yet to reach (guarded by the projector's monitor). An ADDED
   * event for one of them is left to the re-publish: the informer delivers the initial LIST's
   * events while the new leader re-publishes, in list order, which would spread a node's pods
   * over the whole sync again (see {@link #byNode}).
   */
  private final Set<String> republishing = new HashSet<>();

  SnapshotPublisher(ClusterProjector projector, IngestOutput output, KafkaSink sink, IngestMetrics metrics,
      Indexer<Pod> pods, InfeasibleEvents infeasible) {
    this.projector = projector;
    this.output = output;
    this.sink = sink;
    this.metrics = metrics;
    this.pods = pods;
    this.infeasible = infeasible;
  }

  /** An ADDED or MODIFIED event for {@code pod}: publish its cached state if it matters. */
  public void changed(Pod pod) {
    synchronized (projector) {
      metrics.event("pod");
      String key = Cache.metaNamespaceKeyFunc(pod);
      if (republishing.contains(key)) {
        return; // the re-publish has yet to reach it, and will read the cache as it is then
      }
      reconcile(key, true);
    }
  }

  /** A DELETED event: a removal if its uid was published; then the key's current pod. */
  public void deleted(Pod pod) {
    synchronized (projector) {
      metrics.event("pod");
      String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
      if (uid != null) {
        infeasible.forget(uid);
      }
      projector.podDeleted(uid);
      reconcile(Cache.metaNamespaceKeyFunc(pod), false);
    }
  }

  /** A VPA added, changed or deleted: the pods of its namespace are judged again. */
  public void vpa(GenericKubernetesResource vpa, boolean deleted) {
    synchronized (projector) {
      if (vpa.getMetadata() != null && vpa.getMetadata().getNamespace() != null) {
        metrics.event("vpa");
      }
      projector.vpa(vpa, deleted);
    }
  }

  /**
   * Publishes every cached pod again, as if nothing had been published: after this instance
   * became leader, or after Kafka lost records. Paced by the sink's buffer between nodes: the
   * re-publish waits for a half-empty buffer before a node's pods ({@link KafkaSink#awaitRoom}),
   * so no such wait falls between two of them (a pause there longer than the topology's debounce
   * decided the node on part of its pods: a design-point run of 2026-11, 6 nodes). Inside a node it
   * waits only while the buffer is {@value #NEARLY_FULL} full, which a node's pods reach only
   * when they are more than a quarter of the buffer (a tiny buffer): it never overflows.
   */
  public void republishAll() throws InterruptedException {
    synchronized (projector) {
      projector.forgetPublishedPods();
      output.podsForgotten();
    }
    List<List<String>> nodes;
    synchronized (projector) {
      republishing.addAll(pods.listKeys());
      nodes = byNode(republishing);
    }
    try {
      for (List<String> keys : nodes) {
        sink.awaitRoom();
        for (String key : keys) {
          sink.awaitFillAtMost(NEARLY_FULL);
          synchronized (projector) {
            republishing.remove(key);
            reconcile(key, false);
          }
        }
      }
      sink.awaitRoom(); // the node syncs that follow a re-publish find room, as they did before
      // (a tiny buffer left full by a node's pods would overflow on them, and re-publish again)
    } finally {
      synchronized (projector) {
        republishing.clear();
      }
    }
  }

  /**
   * The keys grouped by node (unbound ones first, as one group), each group sorted. In cache
   * order a node's pods were spread over the whole re-publish, so a topology filling empty
   * bookings saw a node go quiet for a debounce period on a few of its pods and decided it on
   * those (the design point's initial sync: thousands of pods grown to the cap, then shrunk
   * back); together, they are read at once.
   */
  private List<List<String>> byNode(Collection<String> keys) {
    Map<String, List<String>> byNode = new TreeMap<>();
    for (String key : keys) {
      Pod pod = pods.getByKey(key);
      String node = pod == null || pod.getSpec() == null || pod.getSpec().getNodeName() == null
          ? "" : pod.getSpec().getNodeName();
      byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(key);
    }
    List<List<String>> groups = new ArrayList<>(byNode.values());
    groups.forEach(group -> group.sort(Comparator.naturalOrder()));
    return groups;
  }

  /**
   * Claims every cached pod for the re-publish about to run: their events wait for it. A new
   * leader calls this before it opens the sink, so no event of the initial LIST still being
   * delivered goes out ahead of the re-publish, in list order.
   */
  public void claimForRepublish() {
    synchronized (projector) {
      republishing.addAll(pods.listKeys());
    }
  }

  /** Publishes the projector's node syncs for {@code nodes} and every node a published pod is on. */
  public void syncNodes(Collection<String> nodes) {
    synchronized (projector) {
      var syncs = projector.nodeSyncs(nodes, sink.recordBudget());
      syncs.forEach(output::nodeSync);
      LOG.debug("published node sync: {} records", syncs.size());
    }
  }

  /** The uids published per node (for tests and diagnostics). */
  public Map<String, TreeSet<String>> publishedByNode() {
    synchronized (projector) {
      return projector.publishedByNode();
    }
  }

  /** Pods whose last snapshot shows the kubelet deferred a resize. */
  public int deferredPods() {
    return output.deferred();
  }

  private void reconcile(String key, boolean countChurn) {
    Pod pod = pods.getByKey(key);
    if (pod == null) {
      return; // deleted since; its DELETED event publishes the removal
    }
    ClusterProjector.Outcome outcome;
    try {
      outcome = projector.pod(pod);
    } catch (ProjectionException e) {
      metrics.invalid("pod");
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (outcome == ClusterProjector.Outcome.UNCHANGED && countChurn) {
      metrics.churn("pod");
    }
  }
}
