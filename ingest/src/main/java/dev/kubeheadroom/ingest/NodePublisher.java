package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.List;

/**
 * Node keys → the {@link ClusterProjector} (a snapshot on the {@code nodes} topic when allocatable
 * CPU, OS, the static-manager marker or labels changed; heartbeats are churn; a removal when a
 * published node is gone from the cache). Level-triggered like {@link SnapshotPublisher}; called
 * by the {@link IngestLoop} only, under the projector's monitor.
 */
public final class NodePublisher {
  private final ClusterProjector projector;
  private final IngestMetrics metrics;
  private final Indexer<Node> nodes;

  NodePublisher(ClusterProjector projector, IngestMetrics metrics, Indexer<Node> nodes) {
    this.projector = projector;
    this.metrics = metrics;
    this.nodes = nodes;
  }

  /**
   * The node named {@code name} as the cache has it now: its snapshot, or its removal when gone.
   *
   * @param countChurn an informer event named it: a snapshot that changes nothing is churn
   */
  void reconcile(String name, boolean countChurn) {
    Node node = nodes.getByKey(name);
    if (node == null) {
      projector.nodeDeleted(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build());
      return;
    }
    Projected.counted(metrics, "node", countChurn, () -> projector.node(node));
  }

  /** Forgets what was published: the next reconcile of each node publishes it again. */
  void forgetPublished() {
    projector.forgetPublishedNodes();
  }

  /** Names of the nodes in the cache. */
  List<String> names() {
    return nodes.listKeys();
  }
}
