package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;

/**
 * The fields of a node Headroom's decisions depend on.
 *
 * @param node node name (the record key)
 * @param allocatableMilli status.allocatable.cpu (already excludes system/kube-reserved)
 * @param os the {@code kubernetes.io/os} label (resize is unsupported on windows)
 * @param staticCpuManager the node is marked as running a static CPU or Memory Manager policy
 * @param labels node labels used by selectors
 */
public record NodeSnapshot(
    String node, long allocatableMilli, String os, boolean staticCpuManager,
    Map<String, String> labels)
    implements NodeEvent {

  public NodeSnapshot {
    Require.text(node, "node");
    Require.nonNegative(allocatableMilli, "allocatableMilli");
    os = os == null ? "" : os;
    labels = Require.map(labels);
  }

  /** Windows nodes and static CPU/Memory Manager nodes cannot resize in place. */
  @JsonIgnore
  public boolean resizable() {
    return !"windows".equalsIgnoreCase(os) && !staticCpuManager;
  }
}
