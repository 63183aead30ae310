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

  @Test
  void takesTheSmallestPodMaxAndTheSmallestRatioOfEitherType() {
    // given a Container ratio of 3, a Pod ratio of 1.5 and two Pod maxes, plus another namespace's
    LimitRange ratios = new LimitRangeBuilder().withNewMetadata().withName("ratios").withNamespace("team-a")
        .endMetadata().withNewSpec()
        .addNewLimit().withType("Container").withMaxLimitRequestRatio(Map.of("cpu", new Quantity("3"))).endLimit()
        .addNewLimit().withType("Pod").withMaxLimitRequestRatio(Map.of("cpu", new Quantity("1.5"))).endLimit()
        .endSpec().build();
    // when
    NamespaceInfo info = NamespaceProjection.project(TEAM_A, List.of(ratios,
        limitRange("team-a", "Pod", "8"), limitRange("team-a", "Pod", "6"),
        limitRange("other", "Pod", "1")));
    // then LimitRanger enforces each, so the tightest of each kind is the cap
    assertThat(info).isEqualTo(new NamespaceInfo("team-a", TEAM_A.getMetadata().getLabels(), 0, 6000, 1500));
  }

  @Test
  void boundsListEveryCpuConstraintOfALimitRangeInItemOrder() {
    LimitRange lr = new LimitRangeBuilder().withNewMetadata().withName("caps").withNamespace("team-a")
        .endMetadata().withNewSpec()
        .addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity("2")))
            .withMaxLimitRequestRatio(Map.of("cpu", new Quantity("4"))).endLimit()
        .addNewLimit().withType("PersistentVolumeClaim").withMax(Map.of("storage", new Quantity("1Gi"))).endLimit()
        .addNewLimit().withType("Pod").withMax(Map.of("cpu", new Quantity("0"))).endLimit()
        .endSpec().build();

    assertThat(LimitRangeCpu.bounds(lr)).containsExactly(
        new LimitRangeCpu.Bound("caps", "team-a", LimitRangeCpu.Kind.CONTAINER_MAX, 2000),
        new LimitRangeCpu.Bound("caps", "team-a", LimitRangeCpu.Kind.CONTAINER_RATIO, 4000));
  }
}
