package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Restartable init containers (sidecars) are resizable like app containers on a 1.33+ API server
 * (docs/design/headroom-design.txt §4.1: "Sidecar containers can"); run-to-completion init containers are not.
 */
class SidecarResizeTest {
  private ApiServerDouble api;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private static Container container(String name, String cpu, String restartPolicy) {
    return new ContainerBuilder().withName(name).withImage("registry.example/" + name + ":1")
        .withRestartPolicy(restartPolicy)
        .withNewResources().addToRequests("cpu", new Quantity(cpu))
        .addToRequests("memory", new Quantity("64Mi")).endResources().build();
  }

  private void createPodWithSidecarAndInit() {
    client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("web-1")
        .withNamespace(NS).endMetadata().withNewSpec().withNodeName("n1")
        .withInitContainers(container("setup", "200m", null), container("proxy", "100m", "Always"))
        .withContainers(container("app", "500m", null)).endSpec().build()).create();
  }

  private Pod apply(Container... initContainers) {
    Pod body = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata().withName("web-1")
        .withNamespace(NS).endMetadata().withNewSpec()
        .withContainers(new ContainerBuilder().withName("app").withNewResources()
            .addToLimits("cpu", new Quantity("1500m")).endResources().build())
        .withInitContainers(initContainers).endSpec().build();
    return client.pods().inNamespace(NS).resource(body).subresource("resize").patch(headroomApply());
  }

  private static Container limit(String name, String cpu) {
    return new ContainerBuilder().withName(name).withNewResources().addToLimits("cpu", new Quantity(cpu))
        .endResources().build();
  }

  @Test
  void aSidecarsCpuLimitIsResizedBesideTheAppContainers() {
    createPodWithSidecarAndInit();
    Pod after = apply(limit("proxy", "300m"));
    assertThat(after.getSpec().getInitContainers().get(1).getResources().getLimits())
        .containsEntry("cpu", new Quantity("300m"));
    assertThat(after.getSpec().getInitContainers().get(0).getResources().getLimits()).isNullOrEmpty();
    assertThat(after.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1500m"));
  }

  @Test
  void aRunToCompletionInitContainerIsNotResizable() {
    createPodWithSidecarAndInit();
    assertThatThrownBy(() -> apply(limit("setup", "400m")))
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining("only restartable init containers");
  }
}
