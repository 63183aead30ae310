package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated kubelet: pod start and resize actuation as docs/design/headroom-design.txt §4.1 describes. */
class KubeletDoubleTest {
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

  private Pod stored(String name) {
    return api.pod(NS, name).orElseThrow();
  }

  private static Optional<PodCondition> condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  private void runningPod(String name, String node) {
    api.client().pods().inNamespace(NS).resource(burstable(name, node, "500m", "1")).create();
    await().atMost(WAIT).until(() -> "Running".equals(stored(name).getStatus().getPhase()));
  }

  @Test
  void aPodCreatedOnANodeBecomesRunningWithItsResourcesInTheStatus() {
    // when
    Pod created = api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    // then: the API server set the QoS class and Pending at creation, the kubelet then runs it
    assertThat(created.getStatus().getQosClass()).isEqualTo("Burstable");
    assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = api.client().pods().inNamespace(NS).withName("web-1").get();
      assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
      assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(status -> {
        assertThat(status.getReady()).isTrue();
        assertThat(status.getResources().getLimits()).containsEntry("cpu", new Quantity("1"));
      });
      assertThat(pod.getStatus().getObservedGeneration()).isEqualTo(pod.getMetadata().getGeneration());
    });
  }

  @Test
  void anUnscheduledPodStaysPending() {
    api.client().pods().inNamespace(NS).resource(burstable("web-1", null, "500m", "1")).create();
    api.client().pods().inNamespace(NS).resource(burstable("web-2", "n1", "500m", "1")).create();
    await().atMost(WAIT).until(() -> "Running".equals(stored("web-2").getStatus().getPhase()));
    assertThat(stored("web-1").getStatus().getPhase()).isEqualTo("Pending");
  }

  @Test
  void afterAResizeTheKubeletReportsTheNewLimitAndTheGenerationItObserved() {
    // given
    runningPod("web-1", "n1");
    // when
    Pod resized = api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    // then
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(pod.getStatus().getObservedGeneration()).isEqualTo(resized.getMetadata().getGeneration());
      assertThat(pod.getStatus().getContainerStatuses().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("3"));
      assertThat(condition(pod, "PodResizePending")).isEmpty();
      assertThat(condition(pod, "PodResizeInProgress")).isEmpty();
    });
  }

  private Pod resizeRequestAndLimit(String name, String cpuRequest, String cpuLimit) {
    return api.client().pods().inNamespace(NS).withName(name).subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"app\","
            + "\"resources\":{\"requests\":{\"cpu\":\"" + cpuRequest + "\"},\"limits\":{\"cpu\":\""
            + cpuLimit + "\"}}}]}}");
  }

  @Test
  void aNodeProgrammedToDeferAnswersPodResizePendingDeferredAndAppliesOnceReleased() {
    // given: Deferred is about admitting requests, so the resize raises the request too
    runningPod("web-1", "n1");
    kubelet.answerResizes("n1", ResizeAnswer.DEFERRED);
    // when
    Pod resized = resizeRequestAndLimit("web-1", "1", "3");
    // then
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(condition(pod, "PodResizePending")).hasValueSatisfying(c -> {
        assertThat(c.getReason()).isEqualTo("Deferred");
        assertThat(c.getObservedGeneration()).isEqualTo(resized.getMetadata().getGeneration());
      });
      assertThat(pod.getStatus().getObservedGeneration()).isEqualTo(resized.getMetadata().getGeneration());
      assertThat(pod.getStatus().getContainerStatuses().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("1"));
    });
    // when the node has room again, the kubelet retries as a real one does
    kubelet.answerResizes("n1", ResizeAnswer.APPLY);
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(condition(pod, "PodResizePending")).isEmpty();
      assertThat(pod.getStatus().getContainerStatuses().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("3"));
    });
  }

  @Test
  void aNodeProgrammedToDeferStillAppliesAChangeOfLimitsAlone() {
    // pkg/kubelet/allocation/allocation_manager.go canResizePod: only requests are admitted
    // against allocatable, so a limit-only resize fits whenever the pod already runs.
    runningPod("web-1", "n1");
    kubelet.answerResizes("n1", ResizeAnswer.DEFERRED);
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).untilAsserted(() -> {
      Pod pod = stored("web-1");
      assertThat(pod.getStatus().getContainerStatuses().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("3"));
      assertThat(condition(pod, "PodResizePending")).isEmpty();
    });
  }

  @Test
  void aNodeProgrammedAsInfeasibleAnswersPodResizePendingInfeasibleOnlyForItsPods() {
    runningPod("web-1", "n1");
    runningPod("web-2", "n2");
    kubelet.answerResizes("n1", ResizeAnswer.INFEASIBLE, "Node didn't have enough capacity: cpu");
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-2", "app", "3"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(condition(stored("web-1"), "PodResizePending")).hasValueSatisfying(c -> {
        assertThat(c.getReason()).isEqualTo("Infeasible");
        assertThat(c.getMessage()).isEqualTo("Node didn't have enough capacity: cpu");
      });
      assertThat(stored("web-2").getStatus().getContainerStatuses().get(0).getResources().getLimits())
          .containsEntry("cpu", new Quantity("3"));
    });
    assertThat(condition(stored("web-2"), "PodResizePending")).isEmpty();
  }

  @Test
  void aNodeProgrammedInProgressShowsPodResizeInProgress() {
    runningPod("web-1", "n1");
    kubelet.answerResizes("n1", ResizeAnswer.IN_PROGRESS);
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).untilAsserted(() ->
        assertThat(condition(stored("web-1"), "PodResizeInProgress")).isPresent());
  }

  @Test
  void theKubeletsStatusWritesAreNotCountedAsRequests() {
    runningPod("web-1", "n1");
    assertThat(kubelet.statusWrites()).isPositive();
    assertThat(api.requests().count(RequestMatcher.of(ApiRequest.Verb.PATCH, "pods"))).isZero();
    assertThat(api.requests().count(RequestMatcher.of(ApiRequest.Verb.UPDATE, "pods"))).isZero();
  }
}
