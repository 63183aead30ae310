package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.Ineligibility;

/**
 * The webhook's own reasons for admitting a pod without a seeded limit, beside the eligibility
 * gates it judges as the topology does ({@link Ineligibility}, named alike in {@code explain}):
 * together the {@code reason} tag of {@code headroom_webhook_unchanged_total}. Every one of them
 * still admits the pod.
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
  /**
   * The pod is eligible, but no container has a CPU request without a CPU limit (all limited),
   * or every seeded limit would equal its request after caps and quantization.
   */
  NOTHING_TO_SEED("nothing-to-seed"),
  /**
   * The pod is one the API server refuses once admission is done (a CPU limit below its request,
   * a quantity it cannot read): judged as ingest would judge it, nothing to seed.
   */
  INVALID_POD("invalid-pod"),
  /** Seeding would change the pod's QoS class (defensive: the rules above should prevent it). */
  WOULD_CHANGE_QOS("would-change-qos"),
  /** The request could not be read or handled; counted as {@code result=error}. */
  ERROR("error");

  private final String wireName;

  AllowReason(String wireName) {
    this.wireName = wireName;
  }

  /** The metric tag value. */
  public String wireName() {
    return wireName;
  }
}
