package dev.kubeheadroom.policy;

import java.util.List;

/**
 * A managed pod's decision taken down to its containers.
 *
 * @param targetLimitMilli the pod target after the QoS guard
 * @param apply whether to patch
 * @param reason why (the policy's, or {@link Reason#QOS_GUARD})
 * @param containers the containers whose limit changes (empty when {@code apply} is false)
 */
public record PodPlan(
    long targetLimitMilli, boolean apply, Reason reason, List<ContainerTarget> containers) {
  public PodPlan {
    containers = List.copyOf(containers);
  }
}
