package dev.kubeheadroom.ingest;

import dev.kubeheadroom.schemas.NodeDecision;
import java.util.HashMap;
import java.util.Map;

/**
 * Managed pods per node, folded from the {@code decisions} topic: each node counts with its latest
 * decision's {@code stats().managedPods()}; a tombstone forgets the node. Not thread-safe (one
 * reader thread owns it).
 */
final class ManagedPodCounts {
  private final Map<String, Integer> byNode = new HashMap<>();
  private long managedPods;
  private long managedNodes;

  /** A decision for {@code node}, or null (a tombstone). */
  void apply(String node, NodeDecision decision) {
    int now = decision == null ? 0 : Math.max(0, decision.stats().managedPods());
    Integer before = decision == null ? byNode.remove(node) : byNode.put(node, now);
    int was = before == null ? 0 : before;
    managedPods += now - was;
    managedNodes += (now > 0 ? 1 : 0) - (was > 0 ? 1 : 0);
  }

  /** Σ managed pods over nodes. */
  long managedPods() {
    return managedPods;
  }

  /** Nodes whose latest decision manages at least one pod. */
  long managedNodes() {
    return managedNodes;
  }
}
