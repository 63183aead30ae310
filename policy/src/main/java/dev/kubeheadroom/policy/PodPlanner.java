package dev.kubeheadroom.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes a pod-level {@link Decision} down to container limits (policy.md, "Splitting a pod's target
 * across its containers" and "QoS must never change").
 */
public final class PodPlanner {

  private PodPlanner() {}

  /**
   * Plans one managed pod.
   *
   * @param decision the policy's decision for the pod
   * @param pod the pod's input as given to the policy
   * @param containers the pod's limit-bearing containers, spec order
   */
  public static PodPlan plan(
      Decision decision, PodInput pod, List<ContainerInput> containers, PolicyConfig config) {
    long target = decision.targetLimitMilli();
    Decision effective = decision;
    if (wouldBecomeGuaranteed(target, containers)) {
      if (pod.currentLimitMilli() <= 0) {
        // Setting limit == request would flip the pod to Guaranteed, which the API server refuses.
        return new PodPlan(0, false, Reason.QOS_GUARD, List.of());
      }
      long step = config.quantumMilli() > 0 ? config.quantumMilli() : 1;
      long raised = target + step;
      if (pod.userCapMilli() > 0 && raised > pod.userCapMilli()) {
        // The cap may be a LimitRange the API server enforces: raise only as far as it allows.
        raised = pod.userCapMilli();
      }
      if (raised <= target) {
        return new PodPlan(pod.currentLimitMilli(), false, Reason.QOS_GUARD, List.of());
      }
      effective = SlackPolicy.deadband(pod, raised, config);
    }
    if (!effective.apply()) {
      return new PodPlan(effective.targetLimitMilli(), false, effective.reason(), List.of());
    }
    long[] limits = split(effective.targetLimitMilli(), containers);
    List<ContainerTarget> changes = new ArrayList<>();
    for (int i = 0; i < containers.size(); i++) {
      ContainerInput c = containers.get(i);
      if (c.requestMilli() > 0 && limits[i] != c.currentLimitMilli()) {
        changes.add(new ContainerTarget(c.name(), c.currentLimitMilli(), limits[i]));
      }
    }
    return new PodPlan(effective.targetLimitMilli(), !changes.isEmpty(), effective.reason(), changes);
  }

  /**
   * Splits {@code targetMilli} pro-rata to container requests by largest remainder, so the parts
   * sum exactly to the target; a zero-request container gets 0 (its limit is left untouched). Ties
   * in the remainder go to the earlier container, keeping the split deterministic.
   */
  public static long[] split(long targetMilli, List<ContainerInput> containers) {
    long total = ContainerInput.podRequestMilli(containers);
    long[] parts = new long[containers.size()];
    if (total == 0) {
      return parts;
    }
    long assigned = 0;
    long[] remainders = new long[containers.size()];
    for (int i = 0; i < parts.length; i++) {
      long request = containers.get(i).requestMilli();
      // targetMilli * request fits in a long for any real CPU quantity (< 2^31 milli each).
      long product = Math.multiplyExact(targetMilli, request);
      parts[i] = product / total;
      remainders[i] = product % total;
      assigned += parts[i];
    }
    long leftover = targetMilli - assigned;
    while (leftover > 0) {
      int best = -1;
      for (int i = 0; i < parts.length; i++) {
        if (containers.get(i).requestMilli() > 0 && (best < 0 || remainders[i] > remainders[best])) {
          best = i;
        }
      }
      parts[best]++;
      remainders[best] = -1; // each container takes at most one leftover millicore
      leftover--;
    }
    return parts;
  }

  /** True when limits == requests for CPU while memory is already equal: the Guaranteed shape. */
  static boolean wouldBecomeGuaranteed(long targetMilli, List<ContainerInput> containers) {
    if (containers.isEmpty()) {
      return false;
    }
    for (ContainerInput c : containers) {
      if (c.requestMilli() <= 0 || !c.memoryGuaranteed()) {
        return false;
      }
    }
    return targetMilli == ContainerInput.podRequestMilli(containers);
  }
}
