package dev.kubeheadroom.policy;

import java.util.List;

/** The policy's answer for one node: its aggregates and one decision per managed pod, input order. */
public record NodeResult(NodeStats stats, List<Decision> decisions) {
  public NodeResult {
    decisions = List.copyOf(decisions);
  }
}
