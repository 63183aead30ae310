package dev.kubeheadroom.replay;

import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.Reason;
import dev.kubeheadroom.policy.Saturating;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.policy.UniformCeiling;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Re-derives a recorded decision from the inputs it carries (every pod the policy saw and the
 * knobs in force) with the pure policy, and says where the record and the re-derivation differ.
 * The decisions topic is an audit log precisely because this must always find nothing.
 */
public final class DecisionVerifier {
  /** Reasons the planner (PodPlanner) gives a change the policy alone would not apply. */
  private static final Set<String> PLANNER_REASONS = Set.of(Reason.QOS_GUARD.wireName(),
      Reason.BELOW_REQUEST.wireName(), Reason.CAP_BELOW_QOS_FLOOR.wireName());

  private DecisionVerifier() {}

  /** Differences, one line each; empty when the decision re-derives exactly. */
  public static List<String> verify(NodeDecision d) {
    List<String> problems = new ArrayList<>();
    // the record's wire types → the policy's, here where the policy runs again
    List<Tenant> tenants = DecisionInput.toTenants(d.inputs());
    if (HierarchicalPolicy.NAME.equals(d.policy()) != (tenants != null && !d.inputs().isEmpty())) {
      problems.add("policy " + d.policy() + ": inputs " + (tenants == null ? "without" : "with") + " tenants");
      return problems;
    }
    NodeResult result = tenants == null || d.inputs().isEmpty()
        ? SlackPolicy.computeNode(d.stats().allocatableMilli(), DecisionInput.toPolicy(d.inputs()), d.config().toPolicy())
        : HierarchicalPolicy.computeNode(d.stats().allocatableMilli(), DecisionInput.toPolicy(d.inputs()), tenants,
            d.config().toPolicy());
    if (!result.stats().equals(d.stats().toPolicy())) {
      problems.add("node stats: recorded " + d.stats() + ", re-derived " + result.stats());
    }
    Map<String, Decision> byUid = result.decisions().stream()
        .collect(Collectors.toMap(Decision::key, Function.identity()));
    for (DecisionInput in : d.inputs()) { // a gang member: its decision under the recorded ceiling
      Decision own = byUid.get(in.key());
      if (own != null && in.gangCeiling() != null) {
        byUid.put(in.key(), UniformCeiling.apply(in.toPolicy(), own, in.gangCeiling().toPolicy(),
            d.config().toPolicy()));
      }
    }
    long quantum = Math.max(d.config().quantumMilli(), 1);
    for (PodChange c : d.changes()) {
      Decision re = byUid.get(c.uid());
      if (re == null) {
        problems.add(c.namespace() + "/" + c.name() + ": not a managed input of the decision");
      } else if (!re.apply() && !PLANNER_REASONS.contains(c.reason())) {
        problems.add(c.namespace() + "/" + c.name() + ": recorded a change, re-derived " + re.reason().wireName());
      } else if (re.targetLimitMilli() != c.targetMilli()
          // the QoS guard: up to one quantum more (less when the pod's cap stops the raise)
          && !(c.targetMilli() > re.targetLimitMilli()
              && c.targetMilli() <= Saturating.add(re.targetLimitMilli(), quantum))) {
        problems.add(c.namespace() + "/" + c.name() + ": recorded target " + c.targetMilli()
            + "m, re-derived " + re.targetLimitMilli() + "m");
      }
      long parts = c.containers().stream().mapToLong(t -> t.toMilli()).reduce(0, Saturating::add);
      if (parts > c.targetMilli()) {
        problems.add(c.namespace() + "/" + c.name() + ": container limits sum to " + parts
            + "m, above the pod target " + c.targetMilli() + "m");
      }
    }
    return problems;
  }
}
