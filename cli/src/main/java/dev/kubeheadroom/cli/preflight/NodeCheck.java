package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * No Windows node, no static CPU/Memory Manager node and no kubelet older than 1.33 in the managed
 * set (docs/design/headroom-design.txt §3 non-goals, §4.1, §6.3): resize is unsupported or prohibited there, so pods on them
 * stay unmanaged. The managed set is the nodes running pods of managed namespaces, or every node
 * while there are none. A WARN when some are excluded; a FAIL when all are (nothing could be
 * resized).
 */
public final class NodeCheck implements Check {
  static final String NAME = "nodes";

  @Override
  public Result run(Cluster cluster) {
    if (!cluster.nodes().readable()) {
      return Result.warn(NAME, cluster.nodes().unreadable() + ": Windows and static-manager nodes not checked",
          "run preflight with list on nodes");
    }
    if (!cluster.managedPods().readable()) {
      return Result.warn(NAME, cluster.managedPods().unreadable() + ": the managed set of nodes is unknown",
          "run preflight with list on pods in the managed namespaces");
    }
    Set<String> hosting = cluster.managedPods().items().stream()
        .filter(NodeCheck::counts)
        .map(p -> p.getSpec().getNodeName())
        .collect(Collectors.toSet());
    List<Node> set = hosting.isEmpty() ? cluster.nodes().items()
        : cluster.nodes().items().stream().filter(n -> hosting.contains(n.getMetadata().getName())).toList();
    if (set.isEmpty()) {
      return Result.warn(NAME, "no nodes", "register Linux nodes running Kubernetes >= 1.35");
    }
    List<String> excluded = new ArrayList<>();
    for (Node node : set) {
      String why = exclusion(node);
      if (why != null) {
        excluded.add(node.getMetadata().getName() + " (" + why + ")");
      }
    }
    String scope = hosting.isEmpty() ? Check.count(set.size(), "node") + " (no managed pods yet, so every node)"
        : Check.count(set.size(), "node") + " running managed pods";
    if (excluded.isEmpty()) {
      return Result.pass(NAME, scope + ": none is Windows, has a static CPU/Memory Manager policy or a kubelet before 1.33");
    }
    if (excluded.size() == set.size()) {
      return Result.fail(NAME, "every node " + (hosting.isEmpty() ? "" : "running managed pods ")
              + "is excluded, nothing can be resized: " + Check.list(excluded),
          "run managed workloads on Linux nodes with a kubelet >= 1.35 and without a static CPU/Memory "
              + "Manager policy (nodeSelector kubernetes.io/os=linux, away from static-policy pools)");
    }
    return Result.warn(NAME, excluded.size() + " of " + scope + " excluded, their pods stay unmanaged: "
            + Check.list(excluded),
        "expected for Windows and NUMA-pinned pools; upgrade old kubelets; if those pods should be "
            + "managed, schedule them onto Linux nodes without a static CPU/Memory Manager policy");
  }

  /** Bound, not terminal, not opted out: a pod whose node Headroom would have to resize on. */
  private static boolean counts(Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty()) {
      return false;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return false;
    }
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null || !HeadroomKeys.UNMANAGED.equals(labels.get(HeadroomKeys.MODE_LABEL));
  }

  /** Why resize is impossible on this node, or null. */
  static String exclusion(Node node) {
    Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    String os = labels.get(NodeProjection.OS_LABEL);
    if ((os == null || os.isEmpty()) && node.getStatus() != null && node.getStatus().getNodeInfo() != null) {
      os = node.getStatus().getNodeInfo().getOperatingSystem();
    }
    if ("windows".equalsIgnoreCase(os)) {
      return "Windows";
    }
    String kubelet = node.getStatus() == null || node.getStatus().getNodeInfo() == null ? null
        : node.getStatus().getNodeInfo().getKubeletVersion();
    KubeVersion version = KubeVersion.parse(null, null, kubelet);
    if (version.known() && !version.atLeast(1, 33)) {
      return "kubelet " + kubelet + ", no in-place resize before 1.33";
    }
    if (NodeProjection.staticResourceManager(labels)) {
      for (String key : List.of(NodeProjection.CPU_MANAGER_POLICY_LABEL, NodeProjection.MEMORY_MANAGER_POLICY_LABEL,
          NodeProjection.CPUMANAGER_CONVENTION_LABEL)) {
        if (labels.containsKey(key) && NodeProjection.staticResourceManager(Map.of(key, labels.get(key)))) {
          return "static CPU/Memory Manager: " + key + "=" + labels.get(key);
        }
      }
    }
    return null;
  }
}
