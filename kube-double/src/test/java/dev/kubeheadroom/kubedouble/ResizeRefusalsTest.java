package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pods a real API server will not resize whatever the change: {@code ValidatePodResize} in
 * {@code pkg/apis/core/validation/validation.go} (1.35, default feature gates).
 */
class ResizeRefusalsTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void seed(Pod pod) {
    api.seedClient().pods().inNamespace(NS).resource(pod).create();
  }

  private Pod resize(String name, String cpuLimit) {
    return api.client().pods().inNamespace(NS).resource(cpuLimitOnly(name, "app", cpuLimit))
        .subresource("resize").patch(headroomApply());
  }

  private Consumer<KubernetesClientException> invalid(String message) {
    return e -> {
      assertThat(e.getCode()).isEqualTo(422);
      assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
      assertThat(e.getStatus().getMessage()).isEqualTo(message);
      assertThat(api.pod(NS, "web-1").orElseThrow().getMetadata().getGeneration()).isEqualTo(1L);
    };
  }

  @Test
  void aPodWithPodLevelResourcesIsNotResized() {
    // isPodLevelResourcesSet(oldPod) || isPodLevelResourcesSet(newPod): Forbidden, empty field path
    seed(new PodBuilder(burstable("web-1", "n1", "500m", "1")).editSpec().withNewResources()
        .addToLimits("cpu", new Quantity("2")).endResources().endSpec().build());
    assertThatThrownBy(() -> resize("web-1", "2")).isInstanceOfSatisfying(KubernetesClientException.class,
        invalid("Pod \"web-1\" is invalid: : Forbidden: pods with pod-level resources cannot be resized"));
  }

  @Test
  void aStaticPodIsNotResized() {
    // oldPod.Annotations[core.MirrorPodAnnotationKey]: the kubelet's mirror of a static pod
    seed(new PodBuilder(burstable("web-1", "n1", "500m", "1")).editMetadata()
        .addToAnnotations("kubernetes.io/config.mirror", "0123abcd").endMetadata().build());
    assertThatThrownBy(() -> resize("web-1", "2")).isInstanceOfSatisfying(KubernetesClientException.class,
        invalid("Pod \"web-1\" is invalid: : Forbidden: static pods cannot be resized"));
  }

  @Test
  void aWindowsPodIsNotResized() {
    // oldPod.Spec.OS.Name == core.Windows
    seed(new PodBuilder(burstable("web-1", "n1", "500m", "1")).editSpec().withNewOs().withName("windows")
        .endOs().endSpec().build());
    assertThatThrownBy(() -> resize("web-1", "2")).isInstanceOfSatisfying(KubernetesClientException.class,
        invalid("Pod \"web-1\" is invalid: : Forbidden: windows pods cannot be resized"));
  }

  @Test
  void aRunningPodWhoseStatusLacksContainerResourcesIsNotResized() {
    // isPodResizeRequestSupported: the first running container must report resources, else its
    // kubelet predates in-place resize
    seed(new PodBuilder(burstable("web-1", "n1", "500m", "1")).withNewStatus().withPhase("Running")
        .addToContainerStatuses(new ContainerStatusBuilder().withName("app").withNewState().withNewRunning()
            .endRunning().endState().build())
        .endStatus().build());
    assertThatThrownBy(() -> resize("web-1", "2")).isInstanceOfSatisfying(KubernetesClientException.class,
        invalid("Pod \"web-1\" is invalid: spec: Forbidden: Pod running on node without support for resize"));
  }

  @Test
  void aRunningPodThatReportsItsResourcesIsResized() {
    seed(new PodBuilder(burstable("web-1", "n1", "500m", "1")).withNewStatus().withPhase("Running")
        .addToContainerStatuses(new ContainerStatusBuilder().withName("app").withNewState().withNewRunning()
            .endRunning().endState().withNewResources().addToLimits("cpu", new Quantity("1")).endResources().build())
        .endStatus().build());
    assertThat(resize("web-1", "2").getMetadata().getGeneration()).isEqualTo(2L);
  }
}
