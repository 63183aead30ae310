package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.PodProjection;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stripped cache copy keeps every field the projection reads and nothing else. */
class PodFieldStripperTest {
  private final PodFieldStripper stripper = new PodFieldStripper();

  private static Pod richPod() {
    Pod pod = pod("team-a", "web-1", "node-1", "500m", "1500m");
    pod.getMetadata().setUid("uid-1");
    pod.getMetadata().setResourceVersion("42");
    pod.getMetadata().setGeneration(3L);
    pod.getMetadata().getLabels().put("kube-headroom.dev/mode", "unmanaged");
    pod.getMetadata().getAnnotations().put("kube-headroom.dev/max-cpu", "2500m");
    pod.getSpec().getContainers().get(0).setResizePolicy(List.of(new ContainerResizePolicy("cpu", "NotRequired")));
    pod.getSpec().setInitContainers(List.of(new ContainerBuilder().withName("proxy").withRestartPolicy("Always")
        .withNewResources().addToRequests("cpu", new Quantity("100m")).endResources().build()));
    pod.getSpec().setOverhead(Map.of("cpu", new Quantity("50m")));
    pod.getStatus().getConditions().add(new PodConditionBuilder().withType("PodResizePending").withStatus("True")
        .withReason("Deferred").withMessage("node is full").withLastTransitionTime("2026-01-01T00:00:00Z").build());
    return pod;
  }

  @Test
  void strippedPodProjectsToTheSameSnapshotAsTheOriginal() {
    Pod pod = richPod();
    assertThat(PodProjection.project(stripper.strip(pod), false)).isEqualTo(PodProjection.project(pod, false));
    assertThat(PodProjection.project(stripper.strip(pod), true)).isEqualTo(PodProjection.project(pod, true));
  }

  @Test
  void strippedPodKeepsOnlyTheFieldsThatMatter() {
    Pod stripped = stripper.strip(richPod());

    assertThat(stripped.getMetadata().getLabels()).containsOnlyKeys("kube-headroom.dev/mode");
    assertThat(stripped.getMetadata().getAnnotations()).containsOnlyKeys("kube-headroom.dev/max-cpu");
    assertThat(stripped.getMetadata().getManagedFields()).isNull();
    assertThat(stripped.getSpec().getContainers().get(0).getImage()).isNull();
    assertThat(stripped.getSpec().getContainers().get(0).getEnv()).isNull();
    assertThat(stripped.getSpec().getContainers().get(0).getReadinessProbe()).isNull();
    assertThat(stripped.getSpec().getOverhead()).containsKey("cpu");
    assertThat(stripped.getStatus().getPodIP()).isNull();
    assertThat(stripped.getStatus().getContainerStatuses()).isNull();
    assertThat(stripped.getStatus().getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo("PodResizePending");
      assertThat(c.getReason()).isEqualTo("Deferred");
      assertThat(c.getLastTransitionTime()).isNull();
    });
  }

  @Test
  void equalQuantitiesAreSharedBetweenStrippedPods() {
    Pod a = stripper.strip(pod("team-a", "a", "node-1", "500m", "1"));
    Pod b = stripper.strip(pod("team-a", "b", "node-1", "500m", "1"));
    assertThat(b.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"))
        .isSameAs(a.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
  }
}
