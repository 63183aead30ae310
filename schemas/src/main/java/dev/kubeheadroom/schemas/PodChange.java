package dev.kubeheadroom.schemas;

import java.util.List;

/**
 * One pod's limit change within a {@link NodeDecision}.
 *
 * @param uid pod uid (the actuator never patches a pod whose uid differs)
 * @param namespace namespace
 * @param name name
 * @param reason the policy's reason (grow, shrink, set)
 * @param fromMilli the pod's aggregate limit before (0 = unset)
 * @param targetMilli the pod's aggregate target
 * @param containers per-container {@code fromMilli → toMilli}, only those that change
 */
public record PodChange(
    String uid, String namespace, String name, String reason, long fromMilli, long targetMilli,
    List<ContainerChange> containers) {
  public PodChange {
    Require.text(uid, "uid");
    Require.text(namespace, "namespace");
    Require.text(name, "name");
    containers = Require.list(containers);
  }
}
