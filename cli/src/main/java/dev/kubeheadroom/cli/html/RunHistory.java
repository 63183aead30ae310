package dev.kubeheadroom.cli.html;

import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run's page draws ({@code simulate -o html}, the demo's report): its decisions and limit
 * changes in time, and the end state.
 *
 * @param decisions each decision, when and on which node (empty where the run does not see them)
 * @param patches each container-limit change, in time order
 * @param report the end state in the {@code simulate} form
 */
public record RunHistory(List<Decided> decisions, List<Patch> patches, ClusterReport report) {
  public RunHistory {
    decisions = List.copyOf(decisions);
    patches = List.copyOf(patches);
  }

  /** One decision record. */
  public record Decided(Instant at, String node, int pods) {}

  /** One container's CPU limit change ({@code fromMilli} 0: none before). */
  public record Patch(Instant at, String namespace, String pod, String container, String node, long fromMilli,
      long toMilli) {}

  /** Collects a simulation's decisions: simulate applies each at once, so each change is a patch. */
  public static final class Recorder {
    private final List<Decided> decisions = new ArrayList<>();
    private final List<Patch> patches = new ArrayList<>();

    public void decided(NodeDecision d) {
      decisions.add(new Decided(d.at(), d.node(), d.changes().size()));
      for (PodChange p : d.changes()) {
        for (ContainerChange c : p.containers()) {
          patches.add(new Patch(d.at(), p.namespace(), p.name(), c.name(), d.node(), c.fromMilli(), c.toMilli()));
        }
      }
    }

    public RunHistory history(ClusterReport report) {
      return new RunHistory(decisions, patches, report);
    }
  }
}
