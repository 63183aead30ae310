package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.Ineligibility;

/**
 * Why a pod was admitted without a seeded limit; the {@code reason} tag of
 * {@code headroom_webhook_unchanged_total}. Every one of them still admits the pod. The
 * eligibility gates the topology checks too take their name from {@link Ineligibility}, so a
 * gate is named alike in the metric and in {@code explain}.
 */
public enum AllowReason {
  /** Not a pod CREATE (another kind, operation or a subresource): nothing to seed. */
  NOT_POD_CREATE("not-pod-create"),
  /** The namespaces/config topics have not been read to their end since start. */
  WARMING_UP("warming-up"),
  /** HeadroomConfig {@code webhook.enabled: false}. */
  WEBHOOK_DISABLED("webhook-disabled"),
  /** HeadroomConfig {@code dryRun: true} (also the built-in default with no HeadroomConfig). */
  DRY_RUN("dry-run"),
  /** {@code min(initialMultiplier, maxMultiplier)} is 1 or less: the limit would be the request. */
  NO_BOOST("no-boost"),
  /** The namespace is not on the namespaces topic (yet): not managed, fail-closed. */
  NAMESPACE_UNKNOWN("namespace-unknown"),
  /** The namespace is not opted in (label absent or not exactly {@code managed}), or excluded. */
  NAMESPACE_NOT_MANAGED(Ineligibility.NAMESPACE_NOT_MANAGED),
  /** The pod is labelled {@code kube-headroom.dev/mode: unmanaged}. */
  POD_OPTED_OUT(Ineligibility.POD_OPTED_OUT),
  /** {@code spec.os.name: windows}: in-place resize is unsupported there. */
  WINDOWS("windows"),
  /** A container resizes CPU with {@code RestartContainer}: Headroom never manages such pods. */
  RESTART_CONTAINER(Ineligibility.RESIZE_RESTARTS_CONTAINER),
  /** The pod sets pod-level {@code spec.resources}, which Headroom does not read yet. */
  POD_LEVEL_RESOURCES(Ineligibility.POD_LEVEL_RESOURCES),
  /**
   * No container has a CPU request without a CPU limit (BestEffort, Guaranteed, all limited), or
   * every seeded limit would equal its request after caps and quantization.
   */
  NOTHING_TO_SEED("nothing-to-seed"),
  /** Seeding would change the pod's QoS class (defensive: the rules above should prevent it). */
  WOULD_CHANGE_QOS("would-change-qos"),
  /** The request could not be read or handled; counted as {@code result=error}. */
  ERROR("error");

  private final String wireName;

  AllowReason(String wireName) {
    this.wireName = wireName;
  }

  AllowReason(Ineligibility gate) {
    this(gate.wireName());
  }

  /** The metric tag value. */
  public String wireName() {
    return wireName;
  }
}
