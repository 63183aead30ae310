package dev.kubeheadroom.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kubeheadroom.schemas.ContainerChange;
import java.time.Instant;
import java.util.List;

/**
 * What {@code audit --pod|--node … --from T1 --to T2} shows: how a pod's (or every pod of a node's)
 * limits and its node's slack and factor moved over the window, and what moved them. Each series
 * holds a point only where a value changed; its first point is at {@code from}, the state in force
 * then. Recorded by {@link TimelineRecorder} from the audit's replay.
 *
 * @param subject what was asked for: {@code pod NAMESPACE/NAME} or {@code node NAME}
 * @param nodes the node's allocatable, slack and factor (for a pod: the node it was on)
 * @param pods the subject pods, sorted by namespace then name
 * @param decisions the decisions that changed a subject pod's limit
 * @param outcomes the resize outcomes of the subject pods (applied, refused, ...)
 * @param neighbours arrivals and departures on the node (for a node: of every pod)
 */
public record Timeline(String subject, Instant from, Instant to, List<NodePoint> nodes, List<PodTrack> pods,
    List<DecisionMark> decisions, List<OutcomeMark> outcomes, List<NeighbourMark> neighbours) {
  public Timeline {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    decisions = List.copyOf(decisions);
    outcomes = List.copyOf(outcomes);
    neighbours = List.copyOf(neighbours);
  }

  /** The node's figures from {@code at} until the next point. */
  public record NodePoint(Instant at, String node, long allocatableMilli, long slackMilli, double factor) {}

  /**
   * One pod's containers.
   *
   * @param departedAt when it left the node within the window; null if still there at {@code to}
   */
  public record PodTrack(String namespace, String name, List<ContainerTrack> containers,
      @JsonInclude(JsonInclude.Include.NON_NULL) Instant departedAt) {
    public PodTrack {
      containers = List.copyOf(containers);
    }
  }

  /** One container's request and limit over time. */
  public record ContainerTrack(String name, List<LimitPoint> points) {
    public ContainerTrack {
      points = List.copyOf(points);
    }
  }

  /** From {@code at}: the container's CPU request and limit ({@code limitMilli} 0: none). */
  public record LimitPoint(Instant at, long requestMilli, long limitMilli) {}

  /** A decision for one subject pod: the pod's target and each container's change. */
  public record DecisionMark(Instant at, String namespace, String name, String reason, long fromMilli,
      long targetMilli, double factor, boolean dryRun, List<ContainerChange> containers) {
    public DecisionMark {
      containers = List.copyOf(containers);
    }
  }

  /** A resize try's outcome ({@code result} as on the wire: applied, infeasible, ...). */
  public record OutcomeMark(Instant at, String namespace, String name, String result, long targetMilli,
      String message) {}

  /** A pod arriving on (or leaving) the node, with its CPU request. */
  public record NeighbourMark(Instant at, String namespace, String name, boolean arrived, long requestMilli) {}
}
