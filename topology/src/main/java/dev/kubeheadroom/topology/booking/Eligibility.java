package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.time.Instant;

/**
 * Whether a pod is managed (docs/design/config.md "Eligibility"): every gate must hold, and the
 * first that fails, in {@link Ineligibility}'s order, is the answer. The gates that depend on the
 * snapshot alone are judged once per snapshot ({@link #snapshotGate}, kept in {@link PodFacts});
 * the node's, the namespace's and the backoff at each decision.
 */
public final class Eligibility {
  private Eligibility() {}

  /** The first gate a pod fails, or null when it is managed. */
  public static Ineligibility whyNot(
      PodEntry entry, NodeSnapshot node, NamespaceInfo namespace, ClusterConfig config, Instant now) {
    return whyNot(entry, resizable(node), config.manages(namespace), config, now);
  }

  /** Whether pods on the node can be resized in place (a snapshot not arrived yet: not known, no). */
  static boolean resizable(NodeSnapshot node) {
    return node != null && node.resizable();
  }

  /**
   * {@link #whyNot} with the node's and the namespace's gates already judged ({@link #resizable},
   * {@link ClusterConfig#manages}): once per decision, not per pod.
   */
  static Ineligibility whyNot(
      PodEntry entry, boolean nodeResizable, boolean namespaceManaged, ClusterConfig config, Instant now) {
    Ineligibility bySnapshot = entry.facts().snapshotGate();
    if (bySnapshot == Ineligibility.TERMINAL) {
      return bySnapshot;
    }
    if (!nodeResizable) {
      return Ineligibility.NODE_NOT_RESIZABLE;
    }
    if (!namespaceManaged) {
      return Ineligibility.NAMESPACE_NOT_MANAGED;
    }
    if (bySnapshot != null) {
      return bySnapshot;
    }
    if (entry.inBackoff(now, config.backoffPeriod())) {
      return Ineligibility.BACKOFF;
    }
    return null;
  }

  /**
   * The first failing gate of those that depend on the snapshot alone: terminal, then (after the
   * node's and the namespace's gates, which {@link #whyNot} checks between) opted out, pod-level
   * resources, QoS, the request's range, a restarting resize, a VPA; null when all hold.
   * {@code requestMilli} is the pod's {@link PodSnapshot#effectiveRequestMilli}.
   */
  static Ineligibility snapshotGate(PodSnapshot pod, long requestMilli) {
    if (pod.terminal()) {
      return Ineligibility.TERMINAL;
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
    if (requestMilli <= 0) {
      return Ineligibility.NO_CPU_REQUEST;
    }
    if (requestMilli == Long.MAX_VALUE) {
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
    return null;
  }
}
