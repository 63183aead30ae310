package dev.kubeheadroom.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The end state of a run in the {@code simulate} output form (docs/design/cli-contract.md): what
 * {@code simulate} prints, and what {@code demo --output json} prints of its simulated API server.
 */
public record ClusterReport(List<PodLine> pods, List<NodeLine> nodes, Summary summary) {
  public ClusterReport {
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
  }

  /**
   * One live pod; containers in spec order (app containers, then sidecars).
   *
   * @param gang the pod's gang ({@code GangKey}: {@code <namespace>/<key>}); null when it is in
   *     none, and then not written, so output without gangs is what it always was
   */
  public record PodLine(String namespace, String name, String node, boolean managed,
      @JsonInclude(JsonInclude.Include.NON_NULL) String gang, List<ContainerLine> containers) {
    public PodLine {
      containers = List.copyOf(containers);
    }

    public PodLine(String namespace, String name, String node, boolean managed, List<ContainerLine> containers) {
      this(namespace, name, node, managed, null, containers);
    }
  }

  /** {@code limitMilli} 0 when the container has no CPU limit. */
  public record ContainerLine(String name, long requestMilli, long limitMilli) {}

  /**
   * @param pool the node pool whose config applies to the node (HeadroomConfig spec.pools); null
   *     when none does, and then not written, so output without pools is what it always was
   */
  public record NodeLine(String name, long allocatableMilli, long slackMilli, double factor,
      @JsonInclude(JsonInclude.Include.NON_NULL) String pool) {
    public NodeLine(String name, long allocatableMilli, long slackMilli, double factor) {
      this(name, allocatableMilli, slackMilli, factor, null);
    }
  }

  /**
   * @param events well-formed input events
   * @param malformed input lines skipped
   * @param decisions decision records emitted
   * @param patches container-limit changes applied
   */
  public record Summary(long events, long malformed, long decisions, long patches) {}
}
