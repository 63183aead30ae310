package dev.kubeheadroom.policy;

/**
 * Uniform ceilings for gangs (docs/design/headroom-design.txt §11.6): the members of a gang get
 * one limit-to-request ratio, the lowest any member's own node would give it, so the worker on
 * the busiest node does not gate a synchronous job while the others burst for nothing.
 *
 * <p>The ceiling is a ratio, applied per pod: a member's gang target is {@code request × ratio},
 * rounded down to the quantum and never below its request nor above its own node's target. So
 * members with equal requests get equal limits, members with different requests keep
 * {@code request ≤ limit ≤ own target ≤ caps}, and the container split and QoS guard downstream
 * ({@link PodPlanner}) are unchanged. The deadband is applied to the gang target, as to any.
 */
public final class UniformCeiling {
  private UniformCeiling() {}

  /**
   * The member's target under the gang's {@code ceiling} (the lowest ratio of a gang of two or
   * more, this member's own included): {@code request × ceiling} rounded down to the quantum,
   * within {@code [request, ownTarget]}; its own target when there is no ceiling (a gang of one
   * is no gang). The member whose ratio is the ceiling goes through the same rounding, so members
   * with equal requests get equal limits even when the lowest own target is off the quantum grid
   * (a max-cpu cap of 1234m gives every such member 1230m).
   */
  public static long target(long requestMilli, long ownTargetMilli, GangRatio ceiling, long quantumMilli) {
    if (ceiling == null || requestMilli <= 0 || ownTargetMilli <= requestMilli) {
      return ownTargetMilli;
    }
    long scaled = HierarchicalPolicy.quantizeDown(ceiling.scale(requestMilli), requestMilli, quantumMilli);
    return Math.min(Math.max(scaled, requestMilli), ownTargetMilli);
  }

  /**
   * The member's decision under the gang's ceiling: {@code own} (its node's decision) with the
   * target lowered to {@link #target} and the deadband applied to that target.
   */
  public static Decision apply(PodInput pod, Decision own, GangRatio ceiling, PolicyConfig config) {
    long target = target(pod.requestMilli(), own.targetLimitMilli(), ceiling, config.quantumMilli());
    return target == own.targetLimitMilli() ? own : SlackPolicy.deadband(pod, target, config);
  }

  /**
   * Every member's target under the gang's ceiling, the lowest of their ratios ({@code members}:
   * each member's own target over its request, in any order; the result is parallel to it). A
   * gang of one keeps its own target.
   */
  public static long[] targets(java.util.List<GangRatio> members, long quantumMilli) {
    GangRatio ceiling = members.size() < 2 ? null : GangRatio.lowest(members);
    long[] out = new long[members.size()];
    for (int i = 0; i < out.length; i++) {
      GangRatio m = members.get(i);
      out[i] = target(m.requestMilli(), m.targetMilli(), ceiling, quantumMilli);
    }
    return out;
  }

  /** The member's own ratio, what it reports to its gang; null for a pod with no request. */
  public static GangRatio ratio(long requestMilli, long ownTargetMilli) {
    return requestMilli <= 0 || ownTargetMilli < requestMilli ? null : new GangRatio(ownTargetMilli, requestMilli);
  }
}
