package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.Map;

/**
 * The fields of a node Headroom's decisions depend on.
 *
 * @param node node name (the record key)
 * @param allocatableMilli status.allocatable.cpu (already excludes system/kube-reserved)
 * @param os the {@code kubernetes.io/os} label (resize is unsupported on windows)
 * @param staticCpuManager the node is marked as running a static CPU or Memory Manager policy
 * @param labels node labels used by selectors
 * @param epoch see {@link NodeEvent#epoch}; not part of what the node is ({@link #withEpoch})
 */
public record NodeSnapshot(
    String node, long allocatableMilli, String os, boolean staticCpuManager,
    Map<String, String> labels,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {

  public NodeSnapshot {
    Require.text(node, "node");
    Require.nonNegative(allocatableMilli, "allocatableMilli");
    os = os == null ? "" : os;
    labels = Require.map(labels);
    Require.nonNegative(epoch, "epoch");
  }

  public NodeSnapshot(String node, long allocatableMilli, String os, boolean staticCpuManager,
      Map<String, String> labels) {
    this(node, allocatableMilli, os, staticCpuManager, labels, 0);
  }

  @Override
  public NodeSnapshot withEpoch(long value) {
    return value == epoch ? this : new NodeSnapshot(node, allocatableMilli, os, staticCpuManager, labels, value);
  }

  /** Windows nodes and static CPU/Memory Manager nodes cannot resize in place. */
  @JsonIgnore
  public boolean resizable() {
    return !"windows".equalsIgnoreCase(os) && !staticCpuManager;
  }
}
