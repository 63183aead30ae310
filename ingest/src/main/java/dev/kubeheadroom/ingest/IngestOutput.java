package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.Emissions.ConfigEmitted;
import dev.kubeheadroom.projection.Emissions.Emission;
import dev.kubeheadroom.projection.Emissions.NamespaceEmitted;
import dev.kubeheadroom.projection.Emissions.NodeEmitted;
import dev.kubeheadroom.projection.Emissions.PodEmitted;
import dev.kubeheadroom.projection.Emissions.PodRemovedEmitted;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.SyncMark;
import dev.kubeheadroom.schemas.Topics;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the projector emitted → the Kafka sink, stamped with the leader's epoch and counted, in
 * the order given. Called by the {@link IngestLoop} only.
 */
final class IngestOutput implements IngestLoop.Publisher {
  private static final Logger LOG = LoggerFactory.getLogger(IngestOutput.class);
  private static final JsonSerde<NodeEvent> EVENTS = HeadroomSerdes.nodeEvents();
  private static final JsonSerde<NamespaceInfo> NAMESPACES = HeadroomSerdes.namespaces();
  private static final JsonSerde<ClusterConfig> CONFIG = HeadroomSerdes.config();

  private final Topics topics;
  private final KafkaSink sink;
  private final IngestMetrics metrics;

  IngestOutput(Topics topics, KafkaSink sink, IngestMetrics metrics) {
    this.topics = topics;
    this.sink = sink;
    this.metrics = metrics;
  }

  @Override
  public void publish(List<Emission> emitted) {
    for (Emission e : emitted) {
      if (e instanceof NodeEmitted n) {
        sendEvent(topics.nodes(), n.node(), n.event(), n.event() instanceof NodeRemoved ? "node-removed" : "node");
      } else if (e instanceof PodEmitted p) {
        sendEvent(topics.pods(), p.snapshot().node(), p.snapshot(), "pod");
      } else if (e instanceof PodRemovedEmitted r) {
        metrics.podGone(r.removed().namespace(), r.removed().name());
        sendEvent(topics.pods(), r.removed().node(), r.removed(), "pod-removed");
      } else if (e instanceof NamespaceEmitted n) {
        NamespaceInfo info = n.info();
        if (sink.offer(topics.namespaces(), n.name(),
            info == null ? null : NAMESPACES.serialize(topics.namespaces(), info))) {
          metrics.published(info == null ? "namespace-deleted" : "namespace");
        }
      } else if (e instanceof ConfigEmitted c) {
        byte[] bytes = c.config() == null ? null : CONFIG.serialize(topics.config(), c.config());
        if (sink.offer(topics.config(), HeadroomKeys.CONFIG_NAME, bytes)) {
          metrics.published(c.config() == null ? "config-deleted" : "config");
        }
      }
    }
  }

  @Override
  public void nodeSyncs(List<NodeSync> syncs) {
    syncs.forEach(sync -> sendEvent(topics.pods(), sync.node(), sync, "node-sync"));
    LOG.debug("published node sync: {} records", syncs.size());
  }

  @Override
  public void syncMark(SyncMark mark) {
    sendEvent(topics.pods(), mark.node(), mark, "sync-mark");
  }

  @Override
  public void republishBegins() {
    sink.republishBegins();
  }

  @Override
  public void awaitRoom() throws InterruptedException {
    sink.awaitRoom();
  }

  @Override
  public int recordBudget() {
    return sink.recordBudget();
  }

  private void sendEvent(String topic, String key, NodeEvent event, String record) {
    if (sink.offer(topic, key, EVENTS.serialize(topic, event.withEpoch(sink.epoch())))) {
      metrics.published(record);
    }
  }
}
