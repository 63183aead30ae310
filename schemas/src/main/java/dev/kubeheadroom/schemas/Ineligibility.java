package dev.kubeheadroom.schemas;

/**
 * Why a pod is not managed (docs/design/config.md "Eligibility"): the eligibility gates, first
 * failing one wins, in this order. One list and one pure judgement ({@link #first}, {@link
 * #ofSnapshot}): the topology checks them on every booked pod, and the webhook on the pod it
 * projects at CREATE, so a gate has one name in {@code explain}, the runbook and the webhook's
 * {@code headroom_webhook_unchanged_total{reason}} tag.
 */
public enum Ineligibility {
  /** Phase Succeeded or Failed. */
  TERMINAL("terminal"),
  /** A Windows or static CPU-manager node, or one whose snapshot has not arrived. */
  NODE_NOT_RESIZABLE("node-not-resizable"),
  /** The namespace is not enrolled, or is excluded. */
  NAMESPACE_NOT_MANAGED("namespace-not-managed"),
  /** Labelled {@code kube-headroom.dev/mode: unmanaged}. */
  POD_OPTED_OUT("pod-opted-out"),
  /** Pod-level {@code spec.resources}: the API server refuses to resize such a pod (422). */
  POD_LEVEL_RESOURCES("pod-level-resources"),
  /** Guaranteed or BestEffort: a resize cannot change the QoS class. */
  NOT_BURSTABLE("not-burstable"),
  /** No CPU request. */
  NO_CPU_REQUEST("no-cpu-request"),
  /** Requests summing past the 64-bit millicore range (the API server accepts each). */
  CPU_OUT_OF_RANGE("cpu-out-of-range"),
  /** A container resizes CPU with {@code RestartContainer}. */
  RESIZE_RESTARTS_CONTAINER("resize-restarts-container"),
  /** A VPA that controls limits targets the pod. */
  VPA_CONTROLS_LIMITS("vpa-controls-limits"),
  /** The last resize was refused and the backoff has not ended. */
  BACKOFF("backoff");

  private final String wireName;

  Ineligibility(String wireName) {
    this.wireName = wireName;
  }

  /** The stable name (explain, runbook, metric tags). */
  public String wireName() {
    return wireName;
  }

  /**
   * The first gate failed, of those that need no booking history: {@link #TERMINAL}, then the
   * node's and the namespace's, then the snapshot's own ({@code bySnapshot}, {@link #ofSnapshot});
   * null when all hold. The topology checks {@link #BACKOFF} after these.
   */
  public static Ineligibility first(Ineligibility bySnapshot, boolean nodeResizable, boolean namespaceManaged) {
    if (bySnapshot == TERMINAL) {
      return bySnapshot;
    }
    if (!nodeResizable) {
      return NODE_NOT_RESIZABLE;
    }
    if (!namespaceManaged) {
      return NAMESPACE_NOT_MANAGED;
    }
    return bySnapshot;
  }

  /**
   * The first failing gate of those that depend on the snapshot alone: terminal, then (after the
   * node's and the namespace's gates, which {@link #first} checks between) opted out, pod-level
   * resources, QoS, the request's range, a restarting resize, a VPA; null when all hold.
   * {@code requestMilli} is the pod's {@link PodSnapshot#effectiveRequestMilli} (the topology
   * keeps it per snapshot).
   */
  public static Ineligibility ofSnapshot(PodSnapshot pod, long requestMilli) {
    if (pod.terminal()) {
      return TERMINAL;
    }
    if (HeadroomKeys.UNMANAGED.equals(pod.mode())) {
      return POD_OPTED_OUT;
    }
    if (pod.podLevelResources()) {
      return POD_LEVEL_RESOURCES; // the API server refuses to resize such a pod (422)
    }
    if (!PodSnapshot.QOS_BURSTABLE.equals(pod.qosClass())) {
      return NOT_BURSTABLE;
    }
    if (requestMilli <= 0) {
      return NO_CPU_REQUEST;
    }
    if (requestMilli == Long.MAX_VALUE) {
      // Requests summing past the 64-bit millicore range (the API server accepts each): no limit
      // Headroom could compute would keep every container at or above its request.
      return CPU_OUT_OF_RANGE;
    }
    for (ContainerSnapshot c : pod.limitBearingContainers()) {
      if (c.cpuResizeRestarts()) {
        return RESIZE_RESTARTS_CONTAINER;
      }
    }
    if (pod.vpaControlsLimits()) {
      return VPA_CONTROLS_LIMITS;
    }
    return null;
  }
}
