package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the {@link ClusterProjector} emits → the Kafka sink, stamped with the leader's epoch and
 * counted; each published pod snapshot is also shown to {@link InfeasibleEvents} (the {@code
 * ResizeInfeasible} event) and to the resize metrics. Called under the projector's monitor.
 */
final class IngestOutput implements ClusterProjector.Output {
  private static final Logger LOG = LoggerFactory.getLogger(IngestOutput.class);
  private static final JsonSerde<NodeEvent> EVENTS = HeadroomSerdes.nodeEvents();
  private static final JsonSerde<NamespaceInfo> NAMESPACES = HeadroomSerdes.namespaces();
  private static final JsonSerde<ClusterConfig> CONFIG = HeadroomSerdes.config();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;
  private final InfeasibleEvents infeasible;
  private volatile int deferred; // written under the projector's monitor

  IngestOutput(Topics topics, KafkaSink sink, IngestMetrics metrics, InfeasibleEvents infeasible) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
    this.infeasible = infeasible;
  }

  /** Pods whose last published snapshot shows the kubelet deferred a resize. */
  int deferred() {
    return deferred;
  }

  /** The projector forgot what it published for pods. */
  void podsForgotten() {
    deferred = 0;
  }

  @Override
  public void node(String node, NodeEvent event) {
    sendEvent(topics.nodes(), node, event, event instanceof NodeRemoved ? "node-removed" : "node");
  }

  @Override
  public void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source) {
    int change = (snapshot.resize() == ResizeStatus.DEFERRED ? 1 : 0)
        - (previous != null && previous.resize() == ResizeStatus.DEFERRED ? 1 : 0);
    deferred += change;
    metrics.kubeletResize(snapshot.namespace(), snapshot.name(), snapshot.resize());
    infeasible.observe(snapshot, source); // a change of resize status always changes the snapshot
    sendEvent(topics.pods(), snapshot.node(), snapshot, "pod");
  }

  @Override
  public void podRemoved(PodRemoved removed, PodSnapshot previous) {
    if (previous.resize() == ResizeStatus.DEFERRED) {
      deferred--;
    }
    metrics.podGone(removed.namespace(), removed.name());
    sendEvent(topics.pods(), removed.node(), removed, "pod-removed");
  }

  void nodeSync(NodeSync sync) {
    sendEvent(topics.pods(), sync.node(), sync, "node-sync");
  }

  @Override
  public void namespace(String name, NamespaceInfo info) {
    if (sink.offer(topics.namespaces(), name, info == null ? null : NAMESPACES.serialize(topics.namespaces(), info))) {
      metrics.published(info == null ? "namespace-deleted" : "namespace");
    }
  }

  @Override
  public void config(ClusterConfig config) {
    byte[] bytes = config == null ? null : CONFIG.serialize(topics.config(), config);
    if (sink.offer(topics.config(), HeadroomKeys.CONFIG_NAME, bytes)) {
      metrics.published(config == null ? "config-deleted" : "config");
    }
  }

  @Override
  public void unreadable(Pod pod, ProjectionException e) {
    metrics.invalid("pod");
    LOG.warn("not published: {}", e.getMessage());
  }

  private void sendEvent(String topic, String key, NodeEvent event, String record) {
    if (sink.offer(topic, key, EVENTS.serialize(topic, event.withEpoch(sink.epoch())))) {
      metrics.published(record);
    }
  }
}
