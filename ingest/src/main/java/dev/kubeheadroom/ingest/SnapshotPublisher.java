package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Pod keys (and VPA keys, which name the pod keys to reconcile again) → the {@link ClusterProjector}, which decides what the
 * {@code pods} topic gets: a snapshot when a booking changed, a removal when a published pod is
 * gone, node syncs on request. Called by the {@link IngestLoop} only, under the projector's
 * monitor.
 *
 * <p>Level-triggered: a key names a pod; what is projected is the informer's cache as it is
 * <em>now</em>, so the newest state is published last whatever order events came in, and an
 * unbound pod (nothing published) is published as soon as the cache shows it bound. A key whose
 * pod is gone, or has a new uid (deleted and created again under the same name), removes the uid
 * last projected for it.
 */
public final class SnapshotPublisher {
  private final ClusterProjector projector;
  private final IngestMetrics metrics;
  private final Indexer<Pod> pods;
  private final Store<GenericKubernetesResource> vpas; // null: the API is not served
  private final InfeasibleEvents infeasible;
  private final Map<String, String> uids = new HashMap<>(); // key → uid last projected; loop only

  SnapshotPublisher(ClusterProjector projector, IngestMetrics metrics, Indexer<Pod> pods,
      Store<GenericKubernetesResource> vpas, InfeasibleEvents infeasible) {
    this.projector = projector;
    this.metrics = metrics;
    this.pods = pods;
    this.vpas = vpas;
    this.infeasible = infeasible;
  }

  /**
   * The pod of {@code key} as the cache has it now: first a removal of the uid last projected for
   * the key if that pod is gone, then its snapshot if it matters.
   *
   * @param countChurn an informer event named it: a snapshot that changes nothing is churn
   */
  void reconcile(String key, boolean countChurn) {
    Pod pod = pods.getByKey(key);
    String uid = pod == null || pod.getMetadata() == null ? null : pod.getMetadata().getUid();
    String previous = pod == null ? uids.remove(key) : uids.put(key, uid);
    if (previous != null && !previous.equals(uid)) {
      infeasible.forget(previous);
      projector.podDeleted(previous);
    }
    if (pod == null) {
      return;
    }
    Projected.counted(metrics, "pod", countChurn, () -> projector.pod(pod));
  }

  /**
   * The VPA of {@code key} added, changed or gone: the projector takes it, and the keys of its
   * namespace's cached pods are returned for the loop to reconcile, as it does any pod key.
   */
  List<String> vpa(String key) {
    GenericKubernetesResource vpa = vpas == null ? null : vpas.getByKey(key);
    String namespace;
    if (vpa != null) {
      namespace = projector.vpa(vpa, false);
    } else {
      int slash = key.indexOf('/');
      namespace = projector.vpa(new GenericKubernetesResourceBuilder().withNewMetadata()
          .withNamespace(key.substring(0, slash)).withName(key.substring(slash + 1)).endMetadata().build(), true);
    }
    return namespace == null ? List.of()
        : pods.byIndex(Cache.NAMESPACE_INDEX, namespace).stream().map(Cache::metaNamespaceKeyFunc).toList();
  }

  /** Every cached pod's key. */
  List<String> keys() {
    return pods.listKeys();
  }

  /** Forgets what was published: the next reconcile of each pod publishes it again. */
  void forgetPublished() {
    projector.forgetPublishedPods();
  }

  /**
   * The keys grouped by node, in node order (unbound ones and those whose pod is gone with nothing
   * published first, under ""), each group sorted. A pod that is gone counts on the node its last
   * snapshot was published for, where its removal goes.
   */
  SortedMap<String, List<String>> byNode(Collection<String> keys) {
    SortedMap<String, List<String>> byNode = new TreeMap<>();
    for (String key : keys) {
      byNode.computeIfAbsent(nodeOfKey(key), n -> new ArrayList<>()).add(key);
    }
    byNode.values().forEach(group -> group.sort(Comparator.naturalOrder()));
    return byNode;
  }

  private String nodeOfKey(String key) {
    Pod pod = pods.getByKey(key);
    if (pod != null) {
      return nodeOf(pod);
    }
    String uid = uids.get(key);
    PodSnapshot published = uid == null ? null : projector.publishedPod(uid);
    return published == null ? "" : published.node();
  }

  private static String nodeOf(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName();
  }

  /** The projector's node syncs for {@code nodes} and every node a published pod is on. */
  List<NodeSync> nodeSyncs(Collection<String> nodes, int recordBudget) {
    return projector.nodeSyncs(nodes, recordBudget);
  }
}
