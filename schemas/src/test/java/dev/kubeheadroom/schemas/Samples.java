package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.PolicyConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One well-formed sample of every record. */
final class Samples {
  static final Instant AT = Instant.parse("2026-03-01T12:00:10Z");

  static PodSnapshot pod() {
    return new PodSnapshot("uid-1", "team-a", "web-1", "n1", "Running", "Burstable", "1003", 2,
        null, 2500, null, false, List.of(new OwnerRef("ReplicaSet", "web-7c", "rs-1", true)),
        List.of(
            new ContainerSnapshot("init", ContainerKind.INIT, 2000, 0, false, false),
            new ContainerSnapshot("proxy", ContainerKind.SIDECAR, 100, 0, false, false),
            new ContainerSnapshot("app", ContainerKind.APP, 500, 1500, true, false)),
        ResizeStatus.NONE);
  }

  static List<NodeEvent> nodeEvents() {
    return List.of(
        pod(),
        new PodRemoved("uid-1", "team-a", "web-1", "n1"),
        new NodeSync("n1", List.of("b", "a")),
        new NodeSnapshot("n1", 16000, "linux", false, Map.of("zone", "a", "arch", "amd64")),
        new NodeRemoved("n1"),
        new ResizeOutcome("n1", "uid-1", "team-a", "web-1", OutcomeResult.QUOTA_DENIED, 3000, AT,
            "exceeded quota: limits.cpu"),
        new SyncMark("n1", SyncMark.Phase.END));
  }

  static NodeDecision decision() {
    return new NodeDecision("n1", AT, 3, "proportional-v1", false, DecisionConfig.of(PolicyConfig.DEFAULTS),
        new DecisionStats(16000, 8000, 8000, 8000, 1, 2, 2.0),
        List.of(new DecisionInput("uid-1", 500, 500, true, 0), new DecisionInput("uid-2", 7500, 0, false, 0)),
        List.of(new PodChange("uid-1", "team-a", "web-1", "grow", 500, 1500,
            List.of(new ContainerChange("app", 500, 1500)))));
  }

  private Samples() {}
}
