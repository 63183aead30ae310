package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * fabric8 {@link Node} → {@link NodeSnapshot}.
 *
 * <p><b>Static CPU/Memory Manager marker.</b> The kubelet does not publish its CPU or Memory
 * Manager policy on the Node object (kubernetes/kubernetes#66525 asked for it and was closed), and
 * node-feature-discovery has no such label either. So the marker is a label the operator sets:
 * <ul>
 *   <li>{@value #CPU_MANAGER_POLICY_LABEL}{@code =static} (Headroom's own key; value
 *       case-insensitive), or {@value #MEMORY_MANAGER_POLICY_LABEL}{@code =static};
 *   <li>{@value #CPUMANAGER_CONVENTION_LABEL}{@code =true}: the label OpenShift's CPU Manager guide
 *       has operators put on such nodes, and that KubeVirt's node labeller sets, so clusters that
 *       already follow that convention need no extra step.
 * </ul>
 * OS comes from the {@code kubernetes.io/os} label, else {@code status.nodeInfo.operatingSystem}.
 * All labels are kept: a selector may name any key, nodes are few and their labels rarely change.
 */
public final class NodeProjection {
  public static final String OS_LABEL = "kubernetes.io/os";
  public static final String CPU_MANAGER_POLICY_LABEL = HeadroomKeys.GROUP + "/cpu-manager-policy";
  public static final String MEMORY_MANAGER_POLICY_LABEL = HeadroomKeys.GROUP + "/memory-manager-policy";
  public static final String CPUMANAGER_CONVENTION_LABEL = "cpumanager";

  private NodeProjection() {}

  /**
   * The node's snapshot. A node without allocatable CPU yet (just registering) has 0.
   *
   * @throws ProjectionException when the node has no name or its allocatable CPU does not parse
   */
  public static NodeSnapshot project(Node node) {
    String name = name(node);
    Map<String, String> labels = node.getMetadata().getLabels();
    labels = labels == null ? Map.of() : labels;
    NodeStatus status = node.getStatus();
    long allocatableMilli = 0;
    if (status != null && status.getAllocatable() != null) {
      Quantity cpu = status.getAllocatable().get("cpu");
      if (cpu != null) {
        try {
          allocatableMilli = CpuQuantity.parseMilli(cpu);
        } catch (QuantityFormatException e) {
          throw new ProjectionException(
              "Node(" + name + "): status.allocatable.cpu: " + e.getMessage(), e);
        }
      }
    }
    String os = labels.get(OS_LABEL);
    if ((os == null || os.isEmpty()) && status != null && status.getNodeInfo() != null) {
      os = status.getNodeInfo().getOperatingSystem();
    }
    return new NodeSnapshot(name, allocatableMilli, os, staticResourceManager(labels), labels);
  }

  /** Whether the node states its allocatable CPU (one just registering may not yet: it is then 0). */
  public static boolean hasAllocatableCpu(Node node) {
    NodeStatus status = node.getStatus();
    return status != null && status.getAllocatable() != null && status.getAllocatable().get("cpu") != null;
  }

  /** The removal record of a deleted node. */
  public static NodeRemoved removed(Node node) {
    return new NodeRemoved(name(node));
  }

  /** Whether the labels mark a static CPU or Memory Manager policy (see the class comment). */
  public static boolean staticResourceManager(Map<String, String> labels) {
    return "static".equalsIgnoreCase(labels.get(CPU_MANAGER_POLICY_LABEL))
        || "static".equalsIgnoreCase(labels.get(MEMORY_MANAGER_POLICY_LABEL))
        || "true".equalsIgnoreCase(labels.get(CPUMANAGER_CONVENTION_LABEL));
  }

  private static String name(Node node) {
    if (node == null || node.getMetadata() == null || node.getMetadata().getName() == null
        || node.getMetadata().getName().isEmpty()) {
      throw new ProjectionException("Node(?): metadata.name is required");
    }
    return node.getMetadata().getName();
  }
}
