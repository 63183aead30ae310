package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import java.time.Instant;

/**
 * Whether a booked pod is managed (docs/design/config.md "Eligibility"): {@link Ineligibility}'s
 * pure gates, which the webhook judges too, then the backoff, which only a booking knows. The
 * gates that depend on the snapshot alone are judged once per snapshot ({@link
 * Ineligibility#ofSnapshot}, kept in {@link PodFacts}); the node's, the namespace's and the
 * backoff at each decision.
 */
public final class Eligibility {
  private Eligibility() {}

  /** The first gate a pod fails, or null when it is managed. */
  public static Ineligibility whyNot(
      PodEntry entry, NodeSnapshot node, NamespaceInfo namespace, ClusterConfig config, Instant now) {
    return whyNot(entry, resizable(node), config.manages(namespace), config, now);
  }

  /** Whether pods on the node can be resized in place (a snapshot not arrived yet: not known, no). */
  static boolean resizable(NodeSnapshot node) {
    return node != null && node.resizable();
  }

  /**
   * {@link #whyNot} with the node's and the namespace's gates already judged ({@link #resizable},
   * {@link ClusterConfig#manages}): once per decision, not per pod.
   */
  static Ineligibility whyNot(
      PodEntry entry, boolean nodeResizable, boolean namespaceManaged, ClusterConfig config, Instant now) {
    Ineligibility gate = Ineligibility.first(entry.facts().snapshotGate(), nodeResizable, namespaceManaged);
    if (gate != null) {
      return gate;
    }
    return entry.inBackoff(now, config.backoffPeriod()) ? Ineligibility.BACKOFF : null;
  }
}
