package dev.kubeheadroom.schemas;

/**
 * Why a pod is not managed: the eligibility gates the topology checks on every booked pod (first
 * failing one wins, in this order) and, those that can be judged at CREATE, the webhook too. One
 * list, so a gate has one name in {@code explain}, the runbook and the webhook's
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
}
