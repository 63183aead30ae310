package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeProjectionTest {

  static NodeBuilder node(Map<String, String> labels) {
    return new NodeBuilder().withNewMetadata().withName("n1").withLabels(labels).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("7910m"), "memory", new Quantity("60Gi")))
        .endStatus();
  }

  @Test
  void projectsAllocatableCpuOsAndLabels() {
    NodeSnapshot snapshot = NodeProjection.project(
        node(Map.of("kubernetes.io/os", "linux", "zone", "a")).build());

    assertThat(snapshot.node()).isEqualTo("n1");
    assertThat(snapshot.allocatableMilli()).isEqualTo(7910);
    assertThat(snapshot.os()).isEqualTo("linux");
    assertThat(snapshot.labels()).containsEntry("zone", "a");
    assertThat(snapshot.staticCpuManager()).isFalse();
    assertThat(snapshot.resizable()).isTrue();
  }

  @Test
  void aWindowsNodeByLabelIsNotResizable() {
    NodeSnapshot snapshot = NodeProjection.project(node(Map.of("kubernetes.io/os", "windows")).build());

    assertThat(snapshot.os()).isEqualTo("windows");
    assertThat(snapshot.resizable()).isFalse();
  }

  @Test
  void takesTheOsFromNodeInfoWhenTheLabelIsMissing() {
    Node node = node(Map.of()).editStatus().withNewNodeInfo().withOperatingSystem("windows").endNodeInfo()
        .endStatus().build();

    assertThat(NodeProjection.project(node).os()).isEqualTo("windows");
  }

  @Test
  void recognisesTheStaticCpuManagerMarkers() {
    assertThat(NodeProjection.project(node(Map.of("kube-headroom.dev/cpu-manager-policy", "static")).build())
        .staticCpuManager()).isTrue();
    assertThat(NodeProjection.project(node(Map.of("kube-headroom.dev/memory-manager-policy", "Static")).build())
        .staticCpuManager()).isTrue();
    assertThat(NodeProjection.project(node(Map.of("cpumanager", "true")).build()).staticCpuManager()).isTrue();
    assertThat(NodeProjection.project(node(Map.of("kube-headroom.dev/cpu-manager-policy", "none")).build())
        .staticCpuManager()).isFalse();
    assertThat(NodeProjection.project(node(Map.of("cpumanager", "false")).build()).staticCpuManager()).isFalse();
  }

  @Test
  void aNodeWithoutStatusYetHasZeroAllocatable() {
    Node node = new NodeBuilder().withNewMetadata().withName("fresh").endMetadata().build();

    NodeSnapshot snapshot = NodeProjection.project(node);

    assertThat(snapshot.allocatableMilli()).isZero();
    assertThat(snapshot.os()).isEmpty();
    assertThat(snapshot.labels()).isEmpty();
  }

  @Test
  void aDeletedNodeBecomesARemovalRecord() {
    assertThat(NodeProjection.removed(node(Map.of()).build())).isEqualTo(new NodeRemoved("n1"));
  }
}
