package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.topology.TopologyListener;
import java.util.concurrent.TimeUnit;

/** The topology's reports as Headroom's metrics. */
final class MetricsListener implements TopologyListener {
  private final HeadroomMetrics metrics;

  MetricsListener(HeadroomMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void deadLetter(String topic, DeadLetter.Kind kind, String reason) {
    metrics.deadLetter(topic, kind.wireName());
  }

  @Override
  public void decided(NodeDecision decision) {
    metrics.recordDecision(decision);
  }

  @Override
  public void backedOff(String node, OutcomeResult result, int attempt) {
    metrics.backoff(result);
  }

  @Override
  public void evaluated(String node, long nanos) {
    metrics.reconcileTimer().record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void fenced(String topic, String node, long epoch, long fence) {
    metrics.fenced(topic);
  }

  @Override
  public void podRemoved(String node, String namespace, String name) {
    metrics.podRemoved(namespace, name);
  }

  @Override
  public void nodeRemoved(String node) {
    metrics.nodeRemoved(node);
  }
}
