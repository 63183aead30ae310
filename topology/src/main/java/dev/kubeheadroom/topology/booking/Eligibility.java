package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.time.Instant;

/** Whether a pod is managed (docs/design/config.md "Eligibility"): every gate must hold. */
public final class Eligibility {
  private Eligibility() {}

  /** The first gate a pod fails, or null when it is managed. Names are stable (explain, tests). */
  public static String whyNot(
      PodEntry entry, NodeSnapshot node, NamespaceInfo namespace, ClusterConfig config, Instant now) {
    PodSnapshot pod = entry.pod();
    if (pod.terminal()) {
      return "terminal";
    }
    if (node == null || !node.resizable()) {
      return "node-not-resizable";
    }
    if (!config.manages(namespace)) {
      return "namespace-not-managed";
    }
    if (HeadroomKeys.UNMANAGED.equals(pod.mode())) {
      return "pod-opted-out";
    }
    if (pod.podLevelResources()) {
      return "pod-level-resources"; // the API server refuses to resize such a pod (422)
    }
    if (!PodSnapshot.QOS_BURSTABLE.equals(pod.qosClass())) {
      return "not-burstable";
    }
    long request = pod.effectiveRequestMilli();
    if (request <= 0) {
      return "no-cpu-request";
    }
    if (request == Long.MAX_VALUE) {
      // Requests summing past the 64-bit millicore range (the API server accepts each): no limit
      // Headroom could compute would keep every container at or above its request.
      return "cpu-out-of-range";
    }
    for (ContainerSnapshot c : pod.limitBearingContainers()) {
      if (c.cpuResizeRestarts()) {
        return "resize-restarts-container";
      }
    }
    if (pod.vpaControlsLimits()) {
      return "vpa-controls-limits";
    }
    if (entry.inBackoff(now, config.backoffPeriod())) {
      return "backoff";
    }
    return null;
  }
}
