package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamespaceProjectionTest {

  static final Namespace TEAM_A = new NamespaceBuilder().withNewMetadata().withName("team-a")
      .withLabels(Map.of("kube-headroom.dev/mode", "managed")).endMetadata().build();

  static LimitRange limitRange(String namespace, String type, String maxCpu) {
    return new LimitRangeBuilder().withNewMetadata().withName("lr-" + maxCpu).withNamespace(namespace).endMetadata()
        .withNewSpec().addNewLimit().withType(type).withMax(Map.of("cpu", new Quantity(maxCpu))).endLimit().endSpec()
        .build();
  }

  @Test
  void aNamespaceWithoutLimitRangesHasNoCap() {
    NamespaceInfo info = NamespaceProjection.project(TEAM_A, List.of());

    assertThat(info.name()).isEqualTo("team-a");
    assertThat(info.labels()).containsEntry("kube-headroom.dev/mode", "managed");
    assertThat(info.limitRangeMaxCpuMilli()).isZero();
  }

  @Test
  void takesTheSmallestContainerMaxCpuAcrossLimitRanges() {
    NamespaceInfo info = NamespaceProjection.project(TEAM_A, List.of(
        limitRange("team-a", "Container", "4"),
        limitRange("team-a", "Container", "2500m"),
        limitRange("team-a", "Pod", "1"),
        limitRange("other", "Container", "100m")));

    assertThat(info.limitRangeMaxCpuMilli()).isEqualTo(2500);
  }

  @Test
  void limitRangesWithoutACpuMaxAreIgnored() {
    LimitRange memoryOnly = new LimitRangeBuilder().withNewMetadata().withName("mem").withNamespace("team-a").endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("memory", new Quantity("1Gi"))).endLimit()
        .endSpec().build();

    assertThat(NamespaceProjection.project(TEAM_A, List.of(memoryOnly)).limitRangeMaxCpuMilli()).isZero();
  }
}
