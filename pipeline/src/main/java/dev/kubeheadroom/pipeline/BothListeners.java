package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.topology.TopologyListener;

/** Two listeners told the same, in order. */
record BothListeners(TopologyListener first, TopologyListener second) implements TopologyListener {
  @Override
  public void deadLetter(String topic, DeadLetter.Kind kind, String reason) {
    first.deadLetter(topic, kind, reason);
    second.deadLetter(topic, kind, reason);
  }

  @Override
  public void fenced(String topic, String node, long epoch, long fence) {
    first.fenced(topic, node, epoch, fence);
    second.fenced(topic, node, epoch, fence);
  }

  @Override
  public void decided(NodeDecision decision) {
    first.decided(decision);
    second.decided(decision);
  }

  @Override
  public void backedOff(String node, OutcomeResult result, int attempt) {
    first.backedOff(node, result, attempt);
    second.backedOff(node, result, attempt);
  }

  @Override
  public void evaluated(String node, long nanos) {
    first.evaluated(node, nanos);
    second.evaluated(node, nanos);
  }

  @Override
  public void podRemoved(String node, String namespace, String name) {
    first.podRemoved(node, namespace, name);
    second.podRemoved(node, namespace, name);
  }

  @Override
  public void nodeRemoved(String node) {
    first.nodeRemoved(node);
    second.nodeRemoved(node);
  }
}
