package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes → the {@code nodes} topic, keyed by node name: a {@link NodeSnapshot} when allocatable
 * CPU, OS, the static-manager marker or labels changed (heartbeats and conditions are dropped as
 * churn), a {@code NodeRemoved} on delete. Level-triggered like {@link SnapshotPublisher}.
 */
public final class NodePublisher {
  private static final Logger LOG = LoggerFactory.getLogger(NodePublisher.class);
  private static final JsonSerde<NodeEvent> SERDE = HeadroomSerdes.nodeEvents();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final Indexer<Node> nodes;
  private final Map<String, NodeSnapshot> published = new HashMap<>(); // guarded by this

  public NodePublisher(Topics topics, KafkaSink sink, IngestMetrics metrics, Indexer<Node> nodes) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
    this.nodes = nodes;
  }

  public synchronized void changed(Node node) {
    metrics.event("node");
    reconcile(node.getMetadata().getName(), true);
  }

  public synchronized void deleted(Node node) {
    metrics.event("node");
    String name = node.getMetadata().getName();
    if (published.remove(name) != null) {
      send(name, NodeProjection.removed(node), "node-removed");
    }
    reconcile(name, false);
  }

  /** Publishes every cached node again (new leader, or Kafka lost records). */
  public void republishAll() throws InterruptedException {
    synchronized (this) {
      published.clear();
    }
    for (String name : nodes.listKeys()) {
      sink.awaitRoom();
      synchronized (this) {
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
    NodeSnapshot snapshot;
    try {
      snapshot = NodeProjection.project(node);
    } catch (ProjectionException e) {
      metrics.invalid("node");
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (snapshot.equals(published.get(name))) {
      if (countChurn) {
        metrics.churn("node");
      }
      return;
    }
    published.put(name, snapshot);
    send(name, snapshot, "node");
  }

  private void send(String name, NodeEvent event, String record) {
    if (sink.offer(topics.nodes(), name, SERDE.serialize(topics.nodes(), event.withEpoch(sink.epoch())))) {
      metrics.published(record);
    }
  }
}
