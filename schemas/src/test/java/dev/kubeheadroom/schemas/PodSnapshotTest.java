package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PodSnapshotTest {
  @Test
  void newCpuLimitsReplaceOnlyTheNamedContainersLimits() {
    PodSnapshot pod = Samples.pod();
    PodSnapshot next = pod.withCpuLimits(Map.of("app", 3000L, "proxy", 400L));

    assertThat(next.containers()).extracting(ContainerSnapshot::name, ContainerSnapshot::cpuLimitMilli)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("init", 0L),
            org.assertj.core.groups.Tuple.tuple("proxy", 400L),
            org.assertj.core.groups.Tuple.tuple("app", 3000L));
    assertThat(next.containers().get(2).cpuRequestMilli()).isEqualTo(500);
    assertThat(next.generation()).isEqualTo(pod.generation());
    assertThat(pod.withCpuLimits(Map.of())).isSameAs(pod);
    assertThat(pod.withCpuLimits(null)).isSameAs(pod);
  }

  @Test
  void aResizeAlsoBumpsTheGenerationAsTheApiServerDoes() {
    PodSnapshot pod = Samples.pod();
    PodSnapshot resized = pod.resized(Map.of("app", 3000L));

    assertThat(resized.generation()).isEqualTo(pod.generation() + 1);
    assertThat(resized.containers().get(2).cpuLimitMilli()).isEqualTo(3000);
    assertThat(resized.withCpuLimits(Map.of("app", 1500L)).containers())
        .isEqualTo(pod.containers());
    assertThat(resized.resourceVersion()).isEqualTo(pod.resourceVersion());
  }
}
