package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One computation for one node that changed at least one limit. It carries every input the
 * policy saw, so the {@code decisions} topic is itself an audit log: re-running the policy on
 * {@code inputs} and {@code config} re-derives {@code changes}. Its parts are schemas' own wire
 * records, mapped from the policy's types where the topology builds it (and back where replay
 * re-runs the policy), so the topic's format changes only with these records.
 *
 * <p>A decision too large for one Kafka record (a node of thousands of pods) is published as
 * consecutive parts (topology DESIGN.md, "Oversized records"): each part carries the whole
 * header (node, time, config, stats) and a slice of the inputs and of the changes, so a reader
 * that acts per change (the actuator) takes each part as it comes, and one that re-derives (the
 * audit) joins the parts first ({@link #join}). A whole decision has no {@code part} and
 * serializes as before.
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
 * @param part which part of a split decision this is; null for a whole decision
 * @param pool the node pool whose config applied (HeadroomConfig {@code spec.pools}); null when
 *     the cluster defaults did, and then not written, so such a decision keeps its bytes
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
    List<PodChange> changes,
    @JsonInclude(JsonInclude.Include.NON_NULL) Part part,
    @JsonInclude(JsonInclude.Include.NON_NULL) String pool)
    implements Versioned {

  /** Part {@code index} (1-based) of {@code count}. */
  public record Part(int index, int count) {
    public Part {
      if (count < 2 || index < 1 || index > count) {
        throw new IllegalArgumentException("part " + index + " of " + count);
      }
    }
  }

  public NodeDecision {
    Require.text(node, "node");
    if (at == null || config == null || stats == null) {
      throw new IllegalArgumentException("at, config and stats are required");
    }
    Require.text(policy, "policy");
    inputs = Require.list(inputs);
    changes = Require.list(changes);
  }

  /** A whole decision. */
  public NodeDecision(String node, Instant at, long configGeneration, String policy, boolean dryRun,
      DecisionConfig config, DecisionStats stats, List<DecisionInput> inputs, List<PodChange> changes) {
    this(node, at, configGeneration, policy, dryRun, config, stats, inputs, changes, null, null);
  }

  /** A part of a decision under the cluster defaults (no pool). */
  public NodeDecision(String node, Instant at, long configGeneration, String policy, boolean dryRun,
      DecisionConfig config, DecisionStats stats, List<DecisionInput> inputs, List<PodChange> changes,
      Part part) {
    this(node, at, configGeneration, policy, dryRun, config, stats, inputs, changes, part, null);
  }

  /** This decision, naming the pool whose config applied (null: the cluster defaults). */
  public NodeDecision inPool(String value) {
    return new NodeDecision(node, at, configGeneration, policy, dryRun, config, stats, inputs,
        changes, part, value);
  }

  /** This decision with these inputs and changes, as part {@code part} (null: whole). */
  public NodeDecision slice(List<DecisionInput> someInputs, List<PodChange> someChanges, Part part) {
    return new NodeDecision(node, at, configGeneration, policy, dryRun, config, stats,
        someInputs, someChanges, part, pool);
  }

  /** Whether this is the last (or only) record of its decision. */
  public boolean complete() {
    return part == null || part.index() == part.count();
  }

  /**
   * The whole decision from its parts, in order (a whole decision joins to itself).
   *
   * @throws IllegalArgumentException when the parts are not exactly 1..n of one decision
   */
  public static NodeDecision join(List<NodeDecision> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no parts");
    }
    NodeDecision first = parts.get(0);
    if (first.part == null) {
      if (parts.size() != 1) {
        throw new IllegalArgumentException("a whole decision has no other parts");
      }
      return first;
    }
    List<DecisionInput> inputs = new ArrayList<>();
    List<PodChange> changes = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      NodeDecision p = parts.get(i);
      if (p.part == null || p.part.index() != i + 1 || p.part.count() != first.part.count()
          || !p.slice(List.of(), List.of(), null).equals(first.slice(List.of(), List.of(), null))) {
        throw new IllegalArgumentException("node " + first.node + " at " + first.at
            + ": parts are not 1.." + first.part.count() + " of one decision");
      }
      inputs.addAll(p.inputs);
      changes.addAll(p.changes);
    }
    if (parts.size() != first.part.count()) {
      throw new IllegalArgumentException("node " + first.node + " at " + first.at + ": "
          + parts.size() + " of " + first.part.count() + " parts");
    }
    return first.slice(inputs, changes, null);
  }
}
