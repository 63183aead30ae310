package dev.kubeheadroom.schemas;

import java.time.Instant;
import java.util.List;

/**
 * One computation for one node that changed at least one limit. It carries every input the
 * policy saw, so the {@code decisions} topic is itself an audit log: re-running the policy on
 * {@code inputs} and {@code config} re-derives {@code changes}. Its parts are schemas' own wire
 * records, mapped from the policy's types where the topology builds it (and back where replay
 * re-runs the policy), so the topic's format changes only with these records.
 *
 * @param node node name (the record key)
 * @param at the event time the computation ran at (from records, never the wall clock)
 * @param configGeneration the HeadroomConfig generation in force (0 = defaults)
 * @param policy the policy's name, {@code proportional-v1}
 * @param dryRun compute, annotate and count, but never patch
 * @param config the policy knobs used
 * @param stats the node aggregates
 * @param inputs every pod on the node as the policy saw it (key = pod uid)
 * @param changes the pods whose limits change
 */
public record NodeDecision(
    String node,
    Instant at,
    long configGeneration,
    String policy,
    boolean dryRun,
    DecisionConfig config,
    DecisionStats stats,
    List<DecisionInput> inputs,
    List<PodChange> changes)
    implements Versioned {
  public NodeDecision {
    Require.text(node, "node");
    if (at == null || config == null || stats == null) {
      throw new IllegalArgumentException("at, config and stats are required");
    }
    Require.text(policy, "policy");
    inputs = Require.list(inputs);
    changes = Require.list(changes);
  }
}
