package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a real kubelet (v1.34.4, v1.35.0, v1.36.0 and v1.37.2 sources; v1.37.2 run on a real node)
 * does that the stand-ins copy: {@code lastProbeTime} on the resize conditions, requests above
 * allocatable by release, and its own resize Events.
 */
class KubeletAsARealKubeletTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  /** The desired resources of the pod's one container after its limit resize, as the kubelet's Event summary has them. */
  private static final String APP_RESIZED = "\"containers\":[{\"name\":\"app\",\"resources\":{"
      + "\"limits\":{\"cpu\":\"2\",\"memory\":\"256Mi\"},\"requests\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"}}}]";
  private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private ApiServerDouble api;
  private KubeletDouble kubelet;

  private void start(String version) {
    api = ApiServerDouble.start();
    api.version(ServerVersion.of(version));
    kubelet = KubeletDouble.start(api, new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    });
  }

  @AfterEach
  void stop() {
    kubelet.close();
    api.close();
  }

  private void node(String allocatableCpu) {
    api.seedClient().nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata()
        .withNewStatus().addToAllocatable("cpu", new Quantity(allocatableCpu)).endStatus().build())
        .createOr(NonDeletingOperation::update);
  }

  private Pod stored(String name) {
    return api.pod(NS, name).orElseThrow();
  }

  private PodCondition pending(String name) {
    return stored(name).getStatus().getConditions().stream().filter(c -> "PodResizePending".equals(c.getType()))
        .findFirst().orElse(null);
  }

  private void running(Pod pod) {
    api.client().pods().inNamespace(NS).resource(pod).create();
    await().atMost(WAIT).until(() -> "Running".equals(stored(pod.getMetadata().getName()).getStatus().getPhase()));
  }

  private void resizeRequest(String name, String cpuRequest) {
    api.client().pods().inNamespace(NS).withName(name).subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"app\","
            + "\"resources\":{\"requests\":{\"cpu\":\"" + cpuRequest + "\"}}}]}}");
  }

  private List<Event> kubeletEvents(String pod) {
    return api.seedClient().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).toList();
  }

  @Test
  void thePendingConditionsProbeTimeIsTheLastTryThatChangedItItsTransitionTheLastChangeOfReason() {
    // status_manager.go updatedPodResizeCondition: lastProbeTime = now on every try,
    // lastTransitionTime only when the reason changes; a try that changes nothing is not written
    start("v1.37.2");
    node("2");
    running(burstable("web-1", "n1", "500m", "2"));
    running(burstable("hog", "n1", "1", "2"));
    resizeRequest("web-1", "1500m");
    await().atMost(WAIT).until(() -> pending("web-1") != null);
    assertThat(pending("web-1").getLastProbeTime()).isEqualTo(T0.toString());
    assertThat(pending("web-1").getLastTransitionTime()).isEqualTo(T0.toString());

    Instant t1 = T0.plusSeconds(30);
    now.set(t1);
    resizeRequest("web-1", "1200m"); // a new generation, still no room: tried again, still Deferred
    await().atMost(WAIT).until(() -> pending("web-1").getObservedGeneration() == 3);
    assertThat(pending("web-1").getLastProbeTime()).isEqualTo(t1.toString());
    assertThat(pending("web-1").getLastTransitionTime()).isEqualTo(T0.toString());

    now.set(T0.plusSeconds(60));
    long writes = kubelet.statusWrites();
    api.client().pods().inNamespace(NS).withName("web-1").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
        "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}"); // a pod event: retried, nothing changes
    await().pollDelay(Duration.ofMillis(300)).atMost(WAIT).until(() -> true);
    assertThat(kubelet.statusWrites()).isEqualTo(writes);
    assertThat(pending("web-1").getLastProbeTime()).isEqualTo(t1.toString());
  }

  @Test
  void requestsAboveAllocatableAreDeferredByAv136KubeletWithTheFitMessage() {
    // v1.36.0 moved resize admission into admit handlers (pkg/kubelet/allocation/handlers.go):
    // above allocatable fails the fit predicate, and SetPodResizePendingCondition makes it Deferred
    start("v1.37.2");
    assertThat(aboveAllocatable()).extracting(PodCondition::getReason, PodCondition::getMessage).containsExactly(
        "Deferred", "Node didn't have enough resource: cpu, requested: 1500, used: 0, capacity: 1000");
  }

  @Test
  void requestsAboveAllocatableAreInfeasibleForAKubeletBeforeV136() {
    // v1.35.0 canResizePod: requests above the kubelet's own allocatable are Infeasible
    start("v1.35.0");
    assertThat(aboveAllocatable()).extracting(PodCondition::getReason, PodCondition::getMessage).containsExactly(
        "Infeasible", "Node didn't have enough capacity: cpu, requested: 1500, capacity: 1000");
  }

  /** A request increase the kubelet holds while the node's allocatable shrinks below it (the server refuses it first). */
  private PodCondition aboveAllocatable() {
    node("2");
    running(burstable("web-1", "n1", "500m", "2"));
    kubelet.answerResizes("n1", ResizeAnswer.DEFERRED);
    resizeRequest("web-1", "1500m");
    await().atMost(WAIT).until(() -> pending("web-1") != null);
    node("1");
    kubelet.answerResizes("n1", ResizeAnswer.APPLY); // the rules decide again, against allocatable 1
    await().atMost(WAIT).until(() -> !pending("web-1").getMessage().contains("programmed"));
    return pending("web-1");
  }

  @Test
  void aV137KubeletRecordsResizeStartedCompletedAndDeferredEventsAsComponentKubelet() {
    // allocation_manager.go handlePodResourcesResize and kubelet.go: events.Resize*, client-go's recorder
    start("v1.37.2");
    node("2");
    running(burstable("web-1", "n1", "500m", "1"));
    Pod resized = api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2"))
        .subresource("resize").patch(headroomApply());
    long generation = resized.getMetadata().getGeneration();
    await().atMost(WAIT).until(() -> kubeletEvents("web-1").size() == 2);
    assertThat(kubeletEvents("web-1")).allSatisfy(e -> {
      assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
      assertThat(e.getSource().getHost()).isEqualTo("n1");
      assertThat(e.getReportingComponent()).isEqualTo("kubelet");
      assertThat(e.getReportingInstance()).isEqualTo("n1");
      assertThat(e.getType()).isEqualTo("Normal");
      assertThat(e.getInvolvedObject().getUid()).isEqualTo(resized.getMetadata().getUid());
    }).extracting(Event::getReason, Event::getMessage).containsExactlyInAnyOrder(
        tuple("ResizeStarted", "Pod resize started: {" + APP_RESIZED + ",\"generation\":" + generation + "}"),
        tuple("ResizeCompleted", "Pod resize completed: {" + APP_RESIZED + ",\"generation\":" + generation + "}"));

    running(burstable("hog", "n1", "1", "2"));
    resizeRequest("web-1", "1500m");
    await().atMost(WAIT).until(() -> kubeletEvents("web-1").stream().anyMatch(e -> "ResizeDeferred".equals(e.getReason())));
    assertThat(kubeletEvents("web-1")).filteredOn(e -> "ResizeDeferred".equals(e.getReason())).singleElement()
        .satisfies(e -> {
          assertThat(e.getType()).isEqualTo("Warning");
          assertThat(e.getMessage()).startsWith("Pod resize Deferred: {").endsWith(",\"error\":\"Node didn't have "
              + "enough resource: cpu, requested: 1500, used: 1000, capacity: 2000\"}");
        });
  }

  @Test
  void aV134KubeletRecordsOnlyResizeCompletedWithoutTheGeneration() {
    // v1.34.4: events.ResizeCompleted from CheckPodResizeInProgress is its only resize Event
    start("v1.34.4");
    node("2");
    running(burstable("web-1", "n1", "500m", "1"));
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2"))
        .subresource("resize").patch(headroomApply());
    await().atMost(WAIT).until(() -> !kubeletEvents("web-1").isEmpty());
    await().pollDelay(Duration.ofMillis(200)).atMost(WAIT).until(() -> true);
    assertThat(kubeletEvents("web-1")).extracting(Event::getReason, Event::getMessage).containsExactly(
        tuple("ResizeCompleted", "Pod resize completed: {" + APP_RESIZED + "}"));
  }
}
