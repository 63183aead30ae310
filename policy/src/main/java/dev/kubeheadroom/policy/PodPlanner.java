package dev.kubeheadroom.policy;

import java.math.BigInteger;
import java.util.List;

/**
 * Takes a pod-level {@link Decision} down to container limits (docs/design/policy.md, "Splitting a pod's target
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
    return plan(decision, pod, containers, config, pod.userCapMilli());
  }

  /**
   * As above, knowing which part of the pod's cap the API server enforces.
   *
   * @param enforcedCapMilli the pod's cap from its LimitRanges (0 = none): a limit above it is
   *     refused, where its {@code max-cpu} annotation is Headroom's own; the four-argument form
   *     takes the whole user cap as enforced
   */
  public static PodPlan plan(Decision decision, PodInput pod, List<ContainerInput> containers, PolicyConfig config,
      long enforcedCapMilli) {
    long target = decision.targetLimitMilli();
    Decision effective = decision;
    if (wouldBecomeGuaranteed(target, containers)) {
      if (pod.currentLimitMilli() <= 0) {
        // Setting limit == request would flip the pod to Guaranteed, which the API server refuses.
        return new PodPlan(0, false, Reason.QOS_GUARD, List.of());
      }
      long step = config.quantumMilli() > 0 ? config.quantumMilli() : 1;
      long raised = Saturating.add(target, step);
      boolean capBelowFloor = false;
      if (pod.userCapMilli() > 0 && raised > pod.userCapMilli()) {
        // The cap may be a LimitRange the API server enforces: raise only as far as it allows,
        // unless it allows nothing above the request; then the QoS class wins (see Reason).
        capBelowFloor = pod.userCapMilli() <= target;
        if (capBelowFloor && (pod.currentLimitMilli() <= pod.userCapMilli()
            || enforcedCapMilli > 0 && raised > enforcedCapMilli)) {
          // The limit already keeps the cap, or the raise would pass a LimitRange the API server
          // enforces: no limit keeps both the cap and the QoS class, so it stays.
          return new PodPlan(pod.currentLimitMilli(), false, Reason.QOS_GUARD, List.of());
        }
        raised = capBelowFloor ? raised : pod.userCapMilli();
      }
      if (raised <= target) { // the request is at the top of the range: no limit above it exists
        return new PodPlan(pod.currentLimitMilli(), false, Reason.QOS_GUARD, List.of());
      }
      effective = SlackPolicy.deadband(pod, raised, config);
      if (capBelowFloor && effective.reason() != Reason.UNCHANGED) {
        effective = new Decision(pod.key(), raised, true, Reason.CAP_BELOW_QOS_FLOOR);
      }
    }
    if (!effective.apply() && belowRequest(containers)) {
      effective = new Decision(pod.key(), effective.targetLimitMilli(), true, Reason.BELOW_REQUEST);
    }
    if (!effective.apply()) {
      return new PodPlan(effective.targetLimitMilli(), false, effective.reason(), List.of());
    }
    long[] limits = split(effective.targetLimitMilli(), containers);
    int changed = 0;
    for (int i = 0; i < limits.length; i++) {
      changed += changes(containers.get(i), limits[i]) ? 1 : 0;
    }
    // sized at once and made immutable here, so the plan keeps the list as it is (one per change)
    ContainerTarget[] changes = new ContainerTarget[changed];
    for (int i = 0, j = 0; i < limits.length; i++) {
      ContainerInput c = containers.get(i);
      if (changes(c, limits[i])) {
        changes[j++] = new ContainerTarget(c.name(), c.currentLimitMilli(), limits[i]);
      }
    }
    return new PodPlan(effective.targetLimitMilli(), changed > 0, effective.reason(), List.of(changes));
  }

  /** Whether a container holds a limit below its request (a request raised since the limit was set). */
  private static boolean belowRequest(List<ContainerInput> containers) {
    for (ContainerInput c : containers) {
      if (c.currentLimitMilli() > 0 && c.currentLimitMilli() < c.requestMilli()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the split moves the container's limit (a container without a request keeps its own). */
  private static boolean changes(ContainerInput c, long limitMilli) {
    return c.requestMilli() > 0 && limitMilli != c.currentLimitMilli();
  }

  /**
   * Splits {@code targetMilli} pro-rata to container requests by largest remainder, so the parts
   * sum exactly to the target; a zero-request container gets 0 (its limit is left untouched). Ties
   * in the remainder go to the earlier container, keeping the split deterministic.
   */
  public static long[] split(long targetMilli, List<ContainerInput> containers) {
    if (containers.size() == 1) {
      // most pods: one container takes the whole target (T·r/r, no remainder), none without a request
      return new long[] {containers.get(0).requestMilli() > 0 ? targetMilli : 0};
    }
    long[] parts = new long[containers.size()];
    long[] remainders = new long[containers.size()];
    if (!floors(targetMilli, containers, parts, remainders)) {
      return parts;
    }
    long assigned = 0;
    for (long part : parts) {
      assigned += part; // Σ floor(T·r/R) ≤ T: cannot overflow
    }
    long leftover = targetMilli - assigned; // < the container count: the fractions sum to it
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

  /**
   * Fills each container's floor(T·r/R) and remainder (T·r mod R); false when R = 0. Exact at any
   * quantity: in longs when T·r and R fit (every real pod), else in {@link BigInteger}.
   */
  private static boolean floors(long target, List<ContainerInput> containers, long[] parts,
      long[] remainders) {
    long total = 0;
    boolean fits = true;
    for (ContainerInput c : containers) {
      total = Saturating.add(total, c.requestMilli());
      fits &= total < Long.MAX_VALUE
          && Saturating.multiply(target, c.requestMilli()) < Long.MAX_VALUE;
    }
    if (total == 0) {
      return false;
    }
    if (fits) {
      for (int i = 0; i < parts.length; i++) {
        long product = target * containers.get(i).requestMilli();
        parts[i] = product / total;
        remainders[i] = product % total;
      }
      return true;
    }
    BigInteger exactTotal = BigInteger.ZERO;
    for (ContainerInput c : containers) {
      exactTotal = exactTotal.add(BigInteger.valueOf(c.requestMilli()));
    }
    for (int i = 0; i < parts.length; i++) {
      BigInteger[] qr = BigInteger.valueOf(target)
          .multiply(BigInteger.valueOf(containers.get(i).requestMilli())).divideAndRemainder(exactTotal);
      parts[i] = qr[0].longValue(); // ≤ T
      // The remainder is below R, which may exceed a long: only the order matters, so saturate.
      remainders[i] = qr[1].bitLength() < 63 ? qr[1].longValue() : Long.MAX_VALUE - 1;
    }
    return true;
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
