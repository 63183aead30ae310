package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the kubelet double decides a resize from its node, as
 * {@code pkg/kubelet/allocation/allocation_manager.go} ({@code handlePodResourcesResize},
 * {@code canResizePod}) and the resize admit handler do.
 */
class KubeletResizeAdmissionTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private ApiServerDouble api;
  private KubeletDouble kubelet;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    kubelet = KubeletDouble.start(api);
  }

  @AfterEach
  void stop() {
    kubelet.close();
    api.close();
  }

  private void node(String name, String allocatableCpu, Map<String, String> labels) {
    api.seedClient().nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
        .endMetadata().withNewStatus().addToAllocatable("cpu", new Quantity(allocatableCpu))
        .addToAllocatable("memory", new Quantity("8Gi")).endStatus().build()).create();
  }

  private Pod stored(String name) {
    return api.pod(NS, name).orElseThrow();
  }

  private static Optional<PodCondition> condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  private void running(Pod pod) {
    api.client().pods().inNamespace(NS).resource(pod).create();
    String name = pod.getMetadata().getName();
    await().atMost(WAIT).until(() -> "Running".equals(stored(name).getStatus().getPhase()));
  }

  private void resizeRequestAndLimit(String name, String cpuRequest, String cpuLimit) {
    api.client().pods().inNamespace(NS).withName(name).subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"app\","
            + "\"resources\":{\"requests\":{\"cpu\":\"" + cpuRequest + "\"},\"limits\":{\"cpu\":\"" + cpuLimit
            + "\"}}}]}}");
  }

  private void awaitPending(String name, String reason, String message) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(stored(name), "PodResizePending"))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo(reason);
          assertThat(c.getMessage()).isEqualTo(message);
        }));
  }

  private static Quantity actualLimit(Pod pod) {
    return pod.getStatus().getContainerStatuses().get(0).getResources().getLimits().get("cpu");
  }

  @Test
  void aLimitOnlyChangeIsAppliedOnAFullNode() {
    // canResizePod admits requests against allocatable; a limit-only resize leaves them unchanged
    node("n1", "2", Map.of());
    running(burstable("web-1", "n1", "1", "1500m"));
    running(burstable("web-2", "n1", "1", "1500m"));
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "8"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).until(() -> new Quantity("8").equals(actualLimit(stored("web-1"))));
    assertThat(condition(stored("web-1"), "PodResizePending")).isEmpty();
  }

  @Test
  void aRequestIncreaseThatDoesNotFitBesideTheOtherPodsIsDeferredAndRetriedWhenRoomFrees() {
    // canAdmitPod fails now -> Deferred; the kubelet retries deferred resizes by itself
    node("n1", "2", Map.of());
    running(burstable("web-1", "n1", "500m", "1"));
    running(burstable("web-2", "n1", "1", "1500m"));
    resizeRequestAndLimit("web-1", "1500m", "2");
    awaitPending("web-1", "Deferred", "Node didn't have enough resource: cpu, requested: 1500, used: 1000, capacity: 2000");
    assertThat(stored("web-1").getStatus().getContainerStatuses().get(0).getAllocatedResources())
        .containsEntry("cpu", new Quantity("500m"));

    api.client().pods().inNamespace(NS).withName("web-2").delete();

    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(condition(pod, "PodResizePending")).isEmpty();
      assertThat(actualLimit(pod)).isEqualTo(new Quantity("2"));
    });
  }

  @Test
  void requestsAboveTheNodesAllocatableAreRefusedByTheServerBeforeTheKubeletSeesThem() {
    // kube-apiserver v1.37 compares the pod's requests with its Node's allocatable itself
    // (NodeFit): the kubelet's Infeasible "Node didn't have enough capacity" is left for what the
    // server cannot see
    node("n1", "2", Map.of());
    running(burstable("web-1", "n1", "500m", "1"));
    assertThatThrownBy(() -> resizeRequestAndLimit("web-1", "3", "4"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(403);
          assertThat(e.getStatus().getMessage()).isEqualTo("pods \"web-1\" is forbidden: node didn't have enough "
              + "allocatable resources: cpu, requested: 3000, allocatable: 2000");
          assertThat(e.getStatus().getDetails().getCauses()).extracting(StatusCause::getReason)
              .containsExactly("NodeCapacity");
        });
    assertThat(stored("web-1").getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new Quantity("500m"));
  }

  @Test
  void aGuaranteedPodsCpuChangeIsInfeasibleOnAStaticCpuManagerNode() {
    // canResizePod: Guaranteed QoS + CPU manager policy "static" + a cpu request change
    node("n1", "8", Map.of(ResizeAdmission.CPU_MANAGER_POLICY, "static"));
    running(new PodBuilder(burstable("web-1", "n1", "1", "1")).build()); // 1/1 cpu, 256Mi/256Mi: Guaranteed
    assertThat(stored("web-1").getStatus().getQosClass()).isEqualTo("Guaranteed");
    resizeRequestAndLimit("web-1", "2", "2");
    awaitPending("web-1", "Infeasible", "Resize is infeasible for Guaranteed Pods alongside CPU Manager policy \"static\"");
  }

  @Test
  void aWindowsPodsResizeIsInfeasible() {
    // the resize admit handler: IsInPlacePodVerticalScalingAllowed is false on Windows (the API
    // server refuses such resizes first; a seeded pod whose spec ran ahead of its status shows it)
    Pod windows = new PodBuilder(burstable("web-1", "n1", "500m", "2")).editSpec().withNewOs()
        .withName("windows").endOs().endSpec().withNewStatus().withPhase("Running")
        .addToContainerStatuses(new ContainerStatusBuilder().withName("app").withNewState().withNewRunning()
            .endRunning().endState().withNewResources().addToRequests("cpu", new Quantity("500m"))
            .addToLimits("cpu", new Quantity("1")).endResources().build())
        .endStatus().build();
    api.seedClient().pods().inNamespace(NS).resource(windows).create();
    awaitPending("web-1", "Infeasible", "In-place pod resize is not supported on Windows");
  }

  @Test
  void anAdmittedResizeShowsPodResizeInProgressUntilItIsActuated() {
    // handlePodResourcesResize: allocation, then SetPodResizeInProgressCondition until actuated
    kubelet.actuationDelay(Duration.ofMillis(800));
    running(burstable("web-1", "n1", "500m", "1"));
    Pod resized = api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(condition(pod, "PodResizeInProgress")).hasValueSatisfying(c -> {
        assertThat(c.getReason()).isNull();
        assertThat(c.getObservedGeneration()).isEqualTo(resized.getMetadata().getGeneration());
      });
      assertThat(actualLimit(pod)).isEqualTo(new Quantity("1"));
    });
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(condition(pod, "PodResizeInProgress")).isEmpty();
      assertThat(actualLimit(pod)).isEqualTo(new Quantity("3"));
    });
  }

  @Test
  void aRunningPodThatReportsNoContainersComesToRest() {
    // a recorded pod (Running, no containerStatuses): nothing to actuate, so no PodResizeInProgress
    // cycle; the kubelet only observes the generation (it once rewrote such pods forever)
    api.seedClient().pods().inNamespace(NS).resource(new PodBuilder(burstable("web-1", "n1", "500m", "1"))
        .withNewStatus().withPhase("Running").endStatus().build()).create();
    await().atMost(WAIT).until(() -> Long.valueOf(1).equals(stored("web-1").getStatus().getObservedGeneration()));
    long writes = kubelet.statusWrites();
    await().pollDelay(Duration.ofMillis(300)).atMost(WAIT).until(() -> true);
    assertThat(kubelet.statusWrites()).isEqualTo(writes);
    assertThat(condition(stored("web-1"), "PodResizeInProgress")).isEmpty();
  }

  @Test
  void aFailedActuationShowsPodResizeInProgressWithReasonError() {
    // the kubelet's SetPodResizeInProgressCondition(uid, "Error", message) on a failed actuation
    running(burstable("web-1", "n1", "500m", "1"));
    kubelet.answerResizes("n1", ResizeAnswer.ACTUATION_ERROR, "failed to update container app: cgroup write refused");
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).untilAsserted(() -> assertThat(condition(stored("web-1"), "PodResizeInProgress"))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("Error");
          assertThat(c.getMessage()).isEqualTo("failed to update container app: cgroup write refused");
        }));
    assertThat(actualLimit(stored("web-1"))).isEqualTo(new Quantity("1"));
  }
}
