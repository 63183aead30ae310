package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ResizePatcherBodyTest {

  private static Container container(String name, String request, String limit) {
    ContainerBuilder b = new ContainerBuilder().withName(name).withImage("app:1");
    b.withNewResources().endResources();
    if (request != null) {
      b.editResources().addToRequests("cpu", new Quantity(request)).addToRequests("memory", new Quantity("64Mi")).endResources();
    }
    if (limit != null) {
      b.editResources().addToLimits("cpu", new Quantity(limit)).endResources();
    }
    return b.build();
  }

  private static Pod pod(Container... containers) {
    return new PodBuilder().withNewMetadata().withName("web").withNamespace("ns").withUid("u1").endMetadata()
        .withNewSpec().withNodeName("n1").withContainers(containers).endSpec().build();
  }

  private static PodWork work(PodChange change) {
    return PodWork.of(1, decision("n1", false, change), change, new TopicPartition("d", 0), 0);
  }

  private static Map<String, Quantity> limitsOf(Pod body, int i) {
    return body.getSpec().getContainers().get(i).getResources().getLimits();
  }

  @Test
  void carriesTheNewLimitOfChangedContainersAndTheCurrentLimitOfOtherOwnedOnes() {
    // given app (changes), sidecar-ish helper with request and limit (unchanged), a no-request logger
    Pod current = pod(container("app", "500m", "1"), container("helper", "250m", "500m"),
        container("logger", null, "100m"));
    // when
    ResizePatcher.Body body = ResizePatcher.body(work(change("u1", "ns", "web", 1500, 2000,
        new ContainerChange("app", 1000, 1500))), current);
    // then: only cpu limits, canonical quantities, the request-less container left alone
    assertThat(body.pod().getSpec().getContainers()).extracting(Container::getName).containsExactly("app", "helper");
    assertThat(limitsOf(body.pod(), 0)).isEqualTo(Map.of("cpu", new Quantity("1500m")));
    assertThat(limitsOf(body.pod(), 1)).isEqualTo(Map.of("cpu", new Quantity("500m")));
    assertThat(body.pod().getSpec().getContainers().get(0).getResources().getRequests()).isNullOrEmpty();
    assertThat(body.pod().getMetadata().getUid()).isEqualTo("u1");
    assertThat(body.alreadyAtTarget()).isFalse();
  }

  @Test
  void wholeCoresAreWrittenWithoutSuffix() {
    ResizePatcher.Body body = ResizePatcher.body(work(change("u1", "ns", "web", 1000, 2000)),
        pod(container("app", "500m", "1")));
    assertThat(limitsOf(body.pod(), 0).get("cpu").toString()).isEqualTo("2");
  }

  @Test
  void aChangeWhosePodIsAlreadyAtTheTargetIsRecognised() {
    ResizePatcher.Body body = ResizePatcher.body(work(change("u1", "ns", "web", 1000, 2000)),
        pod(container("app", "500m", "2")));
    assertThat(body.alreadyAtTarget()).isTrue();
  }

  @Test
  void sidecarsAreResizedInInitContainersAndPlainInitContainersNever() {
    Pod current = new PodBuilder(pod(container("app", "500m", "1"))).editSpec()
        .addToInitContainers(container("setup", "300m", null))
        .addToInitContainers(new ContainerBuilder(container("proxy", "100m", "200m")).withRestartPolicy("Always").build())
        .addToInitContainers(new ContainerBuilder(container("log", "100m", "200m")).withRestartPolicy("Always").build())
        .endSpec().build();
    ResizePatcher.Body body = ResizePatcher.body(work(change("u1", "ns", "web", 1200, 2400,
        new ContainerChange("app", 1000, 2000), new ContainerChange("proxy", 200, 400))), current);
    assertThat(body.changed()).containsExactly("app", "proxy");
    assertThat(body.problem()).isEmpty();
    // the changed sidecar at its target, the unchanged owned sidecar at its current limit, no "setup"
    assertThat(body.pod().getSpec().getInitContainers()).extracting(Container::getName)
        .containsExactly("proxy", "log");
    assertThat(body.pod().getSpec().getInitContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("400m"));
    assertThat(body.pod().getSpec().getInitContainers().get(1).getResources().getLimits())
        .containsEntry("cpu", new Quantity("200m"));
  }

  @Test
  void aContainerThatIsNotResizableIsNamedAsAProblem() {
    Pod current = new PodBuilder(pod(container("app", "500m", "1"))).editSpec()
        .addToInitContainers(container("setup", "300m", null)).endSpec().build();
    ResizePatcher.Body body = ResizePatcher.body(work(change("u1", "ns", "web", 600, 900,
        new ContainerChange("setup", 300, 600))), current);
    assertThat(body.changed()).isEmpty();
    assertThat(body.problem()).contains("no such resizable container [setup]");
  }
}
