package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.ProjectionException;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes → the {@link ClusterProjector} (a snapshot on the {@code nodes} topic when allocatable
 * CPU, OS, the static-manager marker or labels changed; heartbeats are churn; a removal on
 * delete). Level-triggered like {@link SnapshotPublisher}.
 */
public final class NodePublisher {
  private static final Logger LOG = LoggerFactory.getLogger(NodePublisher.class);

  private final ClusterProjector projector;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Node> nodes;

  NodePublisher(ClusterProjector projector, KafkaSink sink, IngestMetrics metrics, Indexer<Node> nodes) {
    this.projector = projector;
    this.sink = sink;
    this.metrics = metrics;
    this.nodes = nodes;
  }

  public void changed(Node node) {
    synchronized (projector) {
      metrics.event("node");
      reconcile(node.getMetadata().getName(), true);
    }
  }

  public void deleted(Node node) {
    synchronized (projector) {
      metrics.event("node");
      projector.nodeDeleted(node);
      reconcile(node.getMetadata().getName(), false);
    }
  }

  /** Publishes every cached node again (new leader, or Kafka lost records). */
  public void republishAll() throws InterruptedException {
    synchronized (projector) {
      projector.forgetPublishedNodes();
    }
    for (String name : nodes.listKeys()) {
      sink.awaitRoom();
      synchronized (projector) {
        reconcile(name, false);
      }
    }
  }

  /** Names of the nodes in the cache. */
  public List<String> names() {
    return nodes.listKeys();
  }

  private void reconcile(String name, boolean countChurn) {
    Node node = nodes.getByKey(name);
    if (node == null) {
      return;
    }
    ClusterProjector.Outcome outcome;
    try {
      outcome = projector.node(node);
    } catch (ProjectionException e) {
      metrics.invalid("node");
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (outcome == ClusterProjector.Outcome.UNCHANGED && countChurn) {
      metrics.churn("node");
    }
  }
}
