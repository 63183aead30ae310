package dev.kubeheadroom.policy;

/**
 * A node's aggregates as the policy saw them.
 *
 * @param allocatableMilli node allocatable CPU
 * @param totalRequestsMilli Σ request over every pod on the node (managed or not)
 * @param slackMilli max(allocatable − totalRequests, 0)
 * @param managedRequestsMilli M = Σ request over managed pods
 * @param managedPods N = managed pod count
 * @param nodePods every pod on the node
 * @param factor 1 + slack / M when both are positive, else 1.0
 */
public record NodeStats(
    long allocatableMilli,
    long totalRequestsMilli,
    long slackMilli,
    long managedRequestsMilli,
    int managedPods,
    int nodePods,
    double factor) {}
