package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.NodeStats;

/**
 * A node's aggregates in a {@link NodeDecision}, as the {@code decisions} topic carries them
 * (mapped from and to the policy's {@link NodeStats}; see {@link DecisionConfig} for why).
 */
public record DecisionStats(
    long allocatableMilli,
    long totalRequestsMilli,
    long slackMilli,
    long managedRequestsMilli,
    int managedPods,
    int nodePods,
    double factor) {

  public static DecisionStats of(NodeStats stats) {
    return new DecisionStats(stats.allocatableMilli(), stats.totalRequestsMilli(), stats.slackMilli(),
        stats.managedRequestsMilli(), stats.managedPods(), stats.nodePods(), stats.factor());
  }

  public NodeStats toPolicy() {
    return new NodeStats(allocatableMilli, totalRequestsMilli, slackMilli, managedRequestsMilli,
        managedPods, nodePods, factor);
  }
}
