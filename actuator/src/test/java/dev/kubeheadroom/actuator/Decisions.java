package dev.kubeheadroom.actuator;

import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Decisions as the topology emits them, for tests. */
final class Decisions {
  /** Fresh: the actuator rejects a decision older than {@code maxDecisionAge} (10 minutes). */
  static final Instant AT = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  /** The design's worked example (§5.1): 16 cores, 8 booked by managed pods, factor 2. */
  static final DecisionStats STATS = new DecisionStats(16_000, 8_000, 8_000, 8_000, 3, 14, 2.0);

  private Decisions() {}

  static NodeDecision decision(String node, boolean dryRun, PodChange... changes) {
    return decision(node, AT, dryRun, changes);
  }

  static NodeDecision decision(String node, Instant at, boolean dryRun, PodChange... changes) {
    return new NodeDecision(node, at, 1, "proportional-v1", dryRun, DecisionConfig.of(PolicyConfig.DEFAULTS), STATS,
        List.of(), List.of(changes));
  }

  /** One pod, one container {@code app} going {@code from → to}. */
  static PodChange change(String uid, String ns, String name, long from, long to) {
    return new PodChange(uid, ns, name, to > from ? "grow" : "shrink", from, to,
        List.of(new ContainerChange("app", from, to)));
  }

  static PodChange change(String uid, String ns, String name, long from, long to, ContainerChange... containers) {
    return new PodChange(uid, ns, name, to > from ? "grow" : "shrink", from, to, List.of(containers));
  }
}
