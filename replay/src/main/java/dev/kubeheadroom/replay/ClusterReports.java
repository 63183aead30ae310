package dev.kubeheadroom.replay;

import dev.kubeheadroom.policy.NodeStats;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.NodeDecider;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Builds a {@link ClusterReport} from pods and nodes, judging eligibility and node aggregates with
 * the topology's own code: {@code simulate} reports its model, {@code demo} its API server.
 */
public final class ClusterReports {
  private ClusterReports() {}

  /** Nodes from their bookings; pods as given (live, bound, non-terminal). */
  public static ClusterReport build(List<NodeBooking> bookings, Collection<PodSnapshot> pods,
      Function<String, NamespaceInfo> namespaces, ClusterConfig config, Instant now,
      ClusterReport.Summary summary) {
    Map<String, Boolean> managed = new HashMap<>();
    List<ClusterReport.NodeLine> nodes = new ArrayList<>();
    for (NodeBooking booking : bookings) {
      if (booking.snapshot() == null) {
        continue;
      }
      Map<String, NodeDecider.PodView> views = NodeDecider.views(booking, config, namespaces, now);
      List<PodInput> inputs = views.values().stream().map(NodeDecider.PodView::input).toList();
      NodeStats stats = SlackPolicy.computeNode(booking.snapshot().allocatableMilli(), inputs,
          config.toPolicyConfig()).stats(); // the aggregates: the same in every pool and tenancy mode
      String pool = config.poolFor(booking.snapshot().labels()).map(NodePool::name).orElse(null);
      nodes.add(new ClusterReport.NodeLine(booking.node(), stats.allocatableMilli(), stats.slackMilli(),
          stats.factor(), pool));
      views.forEach((uid, v) -> managed.put(uid, v.whyNot() == null));
    }
    nodes.sort(Comparator.comparing(ClusterReport.NodeLine::name));
    List<ClusterReport.PodLine> lines = new ArrayList<>();
    for (PodSnapshot pod : pods) {
      lines.add(new ClusterReport.PodLine(pod.namespace(), pod.name(), pod.node(),
          managed.getOrDefault(pod.uid(), false), GangKey.of(pod, config.gangOwnerKinds()), containerLines(pod)));
    }
    lines.sort(Comparator.comparing(ClusterReport.PodLine::namespace).thenComparing(ClusterReport.PodLine::name));
    return new ClusterReport(lines, nodes, summary);
  }

  /** Bookings straight from snapshots (no store): for a live API server's state. */
  public static List<NodeBooking> bookings(Collection<NodeSnapshot> nodes, Collection<PodSnapshot> pods) {
    Map<String, TreeMap<String, PodEntry>> byNode = new HashMap<>();
    for (PodSnapshot pod : pods) {
      byNode.computeIfAbsent(pod.node(), k -> new TreeMap<>())
          .put(pod.uid(), new PodEntry(pod, null, null, false));
    }
    List<NodeBooking> bookings = new ArrayList<>();
    for (NodeSnapshot node : nodes) {
      bookings.add(new NodeBooking(node.node(), node, byNode.getOrDefault(node.node(), new TreeMap<>())));
    }
    return bookings;
  }

  /** App containers in spec order, then sidecars in spec order. */
  static List<ClusterReport.ContainerLine> containerLines(PodSnapshot pod) {
    List<ClusterReport.ContainerLine> lines = new ArrayList<>();
    for (ContainerKind kind : List.of(ContainerKind.APP, ContainerKind.SIDECAR)) {
      for (ContainerSnapshot c : pod.containers()) {
        if (c.kind() == kind) {
          lines.add(new ClusterReport.ContainerLine(c.name(), c.cpuRequestMilli(), c.cpuLimitMilli()));
        }
      }
    }
    return lines;
  }
}
