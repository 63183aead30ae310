package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.time.Instant;

/** Whether a pod is managed (docs/design/config.md "Eligibility"): every gate must hold. */
public final class Eligibility {
  private Eligibility() {}

  /** The first gate a pod fails, or null when it is managed. */
  public static Ineligibility whyNot(
      PodEntry entry, NodeSnapshot node, NamespaceInfo namespace, ClusterConfig config, Instant now) {
    PodSnapshot pod = entry.pod();
    if (pod.terminal()) {
      return Ineligibility.TERMINAL;
    }
    if (node == null || !node.resizable()) {
      return Ineligibility.NODE_NOT_RESIZABLE;
    }
    if (!config.manages(namespace)) {
      return Ineligibility.NAMESPACE_NOT_MANAGED;
    }
    if (HeadroomKeys.UNMANAGED.equals(pod.mode())) {
      return Ineligibility.POD_OPTED_OUT;
    }
    if (pod.podLevelResources()) {
      return Ineligibility.POD_LEVEL_RESOURCES; // the API server refuses to resize such a pod (422)
    }
    if (!PodSnapshot.QOS_BURSTABLE.equals(pod.qosClass())) {
      return Ineligibility.NOT_BURSTABLE;
    }
    long request = pod.effectiveRequestMilli();
    if (request <= 0) {
      return Ineligibility.NO_CPU_REQUEST;
    }
    if (request == Long.MAX_VALUE) {
      // Requests summing past the 64-bit millicore range (the API server accepts each): no limit
      // Headroom could compute would keep every container at or above its request.
      return Ineligibility.CPU_OUT_OF_RANGE;
    }
    for (ContainerSnapshot c : pod.limitBearingContainers()) {
      if (c.cpuResizeRestarts()) {
        return Ineligibility.RESIZE_RESTARTS_CONTAINER;
      }
    }
    if (pod.vpaControlsLimits()) {
      return Ineligibility.VPA_CONTROLS_LIMITS;
    }
    if (entry.inBackoff(now, config.backoffPeriod())) {
      return Ineligibility.BACKOFF;
    }
    return null;
  }
}
