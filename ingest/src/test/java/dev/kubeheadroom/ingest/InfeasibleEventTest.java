package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.TIMEOUT;
import static dev.kubeheadroom.ingest.IngestHarness.snapshotsOf;
import static dev.kubeheadroom.ingest.TestObjects.namespace;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code ResizeInfeasible} Warning event (docs/design/headroom-design.txt §6.4): written by the ingest leader once per
 * Infeasible episode of a pod Headroom may resize. Events are written on one thread in order, so
 * "no event for X" is shown by a later pod's event arriving after X was seen Infeasible.
 */
@WithKafka
class InfeasibleEventTest {
  private static final String NODE = "node-1";
  private static final String NO_ROOM = "Node didn't have enough capacity: cpu, requested: 3000, capacity: 2000";

  private IngestHarness harness;
  private KubeletDouble kubelet;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
    harness.api.seedClient().namespaces().resource(
        namespace("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED))).create();
    harness.api.seedClient().namespaces().resource(namespace("team-b", Map.of())).create();
    kubelet = KubeletDouble.start(harness.api); // applies resizes until a test says otherwise
  }

  @AfterEach
  void stop() {
    kubelet.close();
    harness.close();
  }

  @Test
  void oneEventPerInfeasibleEpisode() {
    Ingest ingest = harness.start("ingest-a");
    Pod web = seedRunning(pod("team-a", "web-1", NODE, "500m", "1"));
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);

    resize("team-a", "web-1", "3");
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() == 1);

    // when: a further resize the kubelet also refuses (same episode), then recovery, then a new one
    resize("team-a", "web-1", "4");
    awaitSnapshot("web-1", s -> s.resize() == ResizeStatus.INFEASIBLE && limit(s) == 4000);
    kubelet.answerResizes(NODE, ResizeAnswer.APPLY);
    awaitSnapshot("web-1", s -> s.resize() == ResizeStatus.NONE && limit(s) == 4000);
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);
    resize("team-a", "web-1", "5");
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() >= 2);

    // then: two episodes, two events (a duplicate from the "4" update would have come first)
    assertThat(events("team-a", "web-1")).hasSize(2).allSatisfy(e -> {
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getReportingController()).isEqualTo("kube-headroom.dev/ingest");
      assertThat(e.getReportingInstance()).isEqualTo("ingest-a");
      assertThat(e.getRegarding().getUid()).isEqualTo(web.getMetadata().getUid());
    }).extracting(Event::getNote).containsExactlyInAnyOrder(
        "kubelet cannot apply the resize to CPU limits app=3000m: " + NO_ROOM,
        "kubelet cannot apply the resize to CPU limits app=5000m: " + NO_ROOM);
    // the count the runbook pairs with the event moved in step
    assertThat(harness.registry(ingest).get(HeadroomMetrics.RESIZES).tag(HeadroomMetrics.RESULT, "infeasible")
        .counter().count()).isEqualTo(2.0);
    assertThat(announced(ingest)).isEqualTo(1.0);
  }

  @Test
  void podsHeadroomDoesNotManageGetNone() {
    harness.start("ingest-a");
    seedRunning(pod("team-b", "other", NODE, "500m", "1"));
    Pod optedOut = pod("team-a", "opted-out", NODE, "500m", "1");
    optedOut.getMetadata().getLabels().put(HeadroomKeys.MODE_LABEL, HeadroomKeys.UNMANAGED);
    seedRunning(optedOut);
    seedRunning(pod("team-a", "web-1", NODE, "500m", "1"));
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);

    resize("team-b", "other", "3");
    resize("team-a", "opted-out", "3");
    awaitSnapshot("other", s -> s.resize() == ResizeStatus.INFEASIBLE);
    awaitSnapshot("opted-out", s -> s.resize() == ResizeStatus.INFEASIBLE);
    resize("team-a", "web-1", "3");
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() == 1);

    assertThat(events("team-b", "other")).isEmpty();
    assertThat(events("team-a", "opted-out")).isEmpty();
  }

  @Test
  void aRefusedEventIsCountedAndIngestCarriesOn() {
    Ingest ingest = harness.start("ingest-a");
    harness.api.faults().next(1, RequestMatcher.of(Verb.CREATE, "events"), Fault.internalError());
    seedRunning(pod("team-a", "web-1", NODE, "500m", "1"));
    seedRunning(pod("team-a", "web-2", NODE, "500m", "1"));
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);

    resize("team-a", "web-1", "3");
    await().atMost(TIMEOUT).until(() -> harness.counter(ingest, IngestMetrics.EVENT_FAILURES) == 1);
    resize("team-a", "web-2", "3");

    await().atMost(TIMEOUT).until(() -> events("team-a", "web-2").size() == 1);
    assertThat(events("team-a", "web-1")).isEmpty(); // one try per episode: no retry storm
    assertThat(harness.counter(ingest, IngestMetrics.EVENT_FAILURES)).isEqualTo(1);
    assertThat(ingest.terminated()).isNotDone();
    assertThat(ingest.leading()).isTrue();
  }

  @Test
  void aDeletedPodIsForgotten() {
    Ingest ingest = harness.start("ingest-a");
    seedRunning(pod("team-a", "web-1", NODE, "500m", "1"));
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);
    resize("team-a", "web-1", "3");
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() == 1);
    assertThat(announced(ingest)).isEqualTo(1.0);

    harness.api.seedClient().pods().inNamespace("team-a").withName("web-1").delete();

    await().atMost(TIMEOUT).until(() -> announced(ingest) == 0);
  }

  @Test
  void onlyTheLeaderWritesAndANewLeaderWritesItAgain() {
    Ingest first = harness.start("ingest-a");
    Ingest standby = harness.start("ingest-b"); // same informers, no Lease
    seedRunning(pod("team-a", "web-1", NODE, "500m", "1"));
    kubelet.answerResizes(NODE, ResizeAnswer.INFEASIBLE, NO_ROOM);
    resize("team-a", "web-1", "3");
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() == 1);
    // the standby saw the Infeasible snapshot too (its count moves after the event writer was
    // shown the snapshot), yet it wrote nothing
    await().atMost(TIMEOUT).until(() -> harness.registry(standby).get(HeadroomMetrics.RESIZES)
        .tag(HeadroomMetrics.RESULT, "infeasible").counter().count() == 1.0);
    assertThat(announced(standby)).isZero();

    // when: the leader goes (failover); the pod is still Infeasible
    first.close();

    // then: runbook "Backoff after a restart/failover": the one-time event reappears, once
    await().atMost(TIMEOUT).until(() -> events("team-a", "web-1").size() == 2);
    assertThat(events("team-a", "web-1")).extracting(Event::getReportingInstance)
        .containsExactlyInAnyOrder("ingest-a", "ingest-b");
    assertThat(announced(standby)).isEqualTo(1.0);
  }

  /** Pods in an Infeasible episode {@code ingest} announced, as its gauge reports them. */
  private double announced(Ingest ingest) {
    return harness.gauge(ingest, IngestMetrics.INFEASIBLE);
  }

  /** Seeds the pod and waits until the kubelet has taken it over (its resources in status). */
  private Pod seedRunning(Pod pod) {
    Pod stored = harness.seed(pod);
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    await().atMost(TIMEOUT).until(() -> harness.api.pod(ns, name)
        .map(p -> p.getStatus().getObservedGeneration() != null
            && p.getStatus().getContainerStatuses().get(0).getResources() != null)
        .orElse(false));
    return stored;
  }

  private void resize(String namespace, String name, String cpuLimit) {
    harness.api.client().pods().inNamespace(namespace).withName(name).subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"app\","
            + "\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"},"
            + "\"limits\":{\"cpu\":\"" + cpuLimit + "\",\"memory\":\"256Mi\"}}}]}}");
  }

  private void awaitSnapshot(String name, Predicate<PodSnapshot> matching) {
    harness.podsUntil(records -> snapshotsOf(records, name).stream().anyMatch(matching));
  }

  private static long limit(PodSnapshot s) {
    return s.containers().get(0).cpuLimitMilli();
  }

  private List<Event> events(String namespace, String pod) {
    return harness.api.seedClient().events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> "ResizeInfeasible".equals(e.getReason()))
        .filter(e -> InfeasibleEvents.REPORTING_CONTROLLER.equals(e.getReportingController())) // not the kubelet's
        .filter(e -> pod.equals(e.getRegarding().getName()))
        .toList();
  }
}
