package dev.kubeheadroom.actuator;

import dev.kubeheadroom.ops.HeadroomMetrics;
import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.ActuatorHarness.WAIT;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The actuator against a real broker and the API server double (docs/design/pipeline.md, docs/design/headroom-design.txt §6.4, §8.1, §9.4). */
@WithKafka
class ActuatorTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  private static ClusterConfig enforcingWith(RateLimits rates) {
    ClusterConfig d = ClusterConfig.DEFAULTS;
    return new ClusterConfig(1, d.policy(), false, d.minBurstFloorMilli(), d.maxMultiplier(),
        d.quantumMilli(), d.deadbandGrowPercent(), d.deadbandShrinkPercent(), d.debouncePeriod(),
        d.maxDebounceDelay(), d.backoffPeriod(), rates, d.webhook(), d.namespaceSelector(),
        d.excludedNamespaces());
  }

  private long resizes(String pod) {
    return h.api.requests().count(RequestMatcher.resizeOf(NS, pod));
  }

  @Test
  void aDecisionBecomesTheContainersLimitWithAnnotationEventOutcomeAndMetrics() {
    // given a Burstable pod limited to 1500m, and a running actuator
    Pod before = h.pod("web-1", "n1", "app=750m/1500m");
    h.start();
    // when the topology decides 1500m → 3000m
    h.produce(decision("n1", false, change(before.getMetadata().getUid(), NS, "web-1", 1500, 3000)));
    // then an applied outcome keyed by node comes back
    List<ConsumerRecord<String, NodeEvent>> records = h.outcomeRecordsUntil(1);
    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("n1");
      ResizeOutcome o = (ResizeOutcome) r.value();
      assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED);
      assertThat(o.podUid()).isEqualTo(before.getMetadata().getUid());
      assertThat(o.targetMilli()).isEqualTo(3000);
    });
    // and the limit is the target; requests and memory untouched; generation bumped
    Pod after = h.stored("web-1");
    var resources = after.getSpec().getContainers().get(0).getResources();
    assertThat(resources.getLimits()).isEqualTo(Map.of("cpu", new Quantity("3"), "memory", new Quantity("256Mi")));
    assertThat(resources.getRequests()).isEqualTo(before.getSpec().getContainers().get(0).getResources().getRequests());
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration() + 1);
    // and the status annotation explains it
    assertThat(after.getMetadata().getAnnotations()).containsEntry(HeadroomKeys.STATUS_ANNOTATION,
        "{\"factor\":\"2.00\",\"slack\":\"8000m\",\"managedRequests\":\"8000m\",\"nodePods\":14,"
            + "\"targetLimit\":\"3000m\",\"policy\":\"proportional-v1\",\"dryRun\":false,"
            + "\"computedAt\":\"" + Decisions.AT + "\"}");
    // and an event says what changed
    assertThat(h.events("CPULimitAdjusted")).singleElement().satisfies(e -> {
      assertThat(e.getNote()).isEqualTo("1500m → 3000m (node factor 2.00, slack 8/16 cores)");
      assertThat(e.getType()).isEqualTo("Normal");
      assertThat(e.getAction()).isEqualTo("Resize");
      assertThat(e.getReportingController()).isEqualTo("kube-headroom.dev/actuator");
      assertThat(e.getRegarding().getUid()).isEqualTo(before.getMetadata().getUid());
    });
    // and the metrics count it
    assertThat(h.counter(HeadroomMetrics.RESIZES, "applied")).isEqualTo(1.0);
    assertThat(h.counter(HeadroomMetrics.RESIZES, "error")).isZero();
    assertThat(h.registry.get(HeadroomMetrics.POD_APPLIED_CORES).tags("namespace", NS, "pod", "web-1").gauge().value())
        .isEqualTo(3.0);
    assertThat(h.registry.get(ActuatorMetrics.PATCH).timer().count()).isEqualTo(1);
    // and exactly one resize request went out
    assertThat(resizes("web-1")).isEqualTo(1);
  }

  @Test
  void changingOneContainerKeepsTheLimitsOfTheOtherContainersHeadroomOwns() {
    // given a two-container pod; a first decision changes both (Headroom owns both limits)
    Pod pod = h.pod("multi", "n1", "app=500m/1", "helper=250m/500m");
    String uid = pod.getMetadata().getUid();
    h.start();
    h.produce(decision("n1", false, change(uid, NS, "multi", 1500, 3000,
        new ContainerChange("app", 1000, 2000), new ContainerChange("helper", 500, 1000))));
    h.outcomesUntil(os -> os.size() >= 1);
    // when a second decision changes only app
    h.produce(decision("n1", false, change(uid, NS, "multi", 3000, 3500,
        new ContainerChange("app", 2000, 2500))));
    // then it applies (no 422 for an omitted owned limit) and helper keeps its limit
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(outcomes).extracting(ResizeOutcome::result)
        .containsExactly(OutcomeResult.APPLIED, OutcomeResult.APPLIED);
    assertThat(h.cpuLimit("multi", 0)).isEqualTo("2500m");
    assertThat(h.cpuLimit("multi", 1)).isEqualTo("1");
    assertThat(h.api.requests().count(RequestMatcher.resize(), 422)).isZero();
  }

  @Test
  void aPodReplacedUnderTheSameNameIsGoneAndNeverPatched() {
    // given a pod Headroom resized once
    Pod original = h.pod("web-1", "n1", "app=500m/1");
    h.start();
    h.produce(decision("n1", false, change(original.getMetadata().getUid(), NS, "web-1", 1000, 2000)));
    h.outcomesUntil(os -> os.size() >= 1);
    assertThat(h.registry.find(HeadroomMetrics.POD_APPLIED_CORES).tags("pod", "web-1").gauge()).isNotNull();
    // and then deleted and re-created with the same name (a new uid)
    h.api.seedClient().pods().inNamespace(NS).withName("web-1").delete();
    await().atMost(WAIT).until(() -> h.api.pod(NS, "web-1").isEmpty());
    Pod replacement = h.pod("web-1", "n1", "app=500m/1");
    assertThat(replacement.getMetadata().getUid()).isNotEqualTo(original.getMetadata().getUid());
    // when a decision still naming the old uid arrives
    h.produce(decision("n1", false, change(original.getMetadata().getUid(), NS, "web-1", 1000, 4000)));
    // then it is gone, the replacement is untouched, and its gauge series is removed
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(outcomes.get(1).result()).isEqualTo(OutcomeResult.GONE);
    assertThat(outcomes.get(1).message()).contains("replaced");
    assertThat(resizes("web-1")).isEqualTo(1);
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("1");
    assertThat(h.stored("web-1").getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(h.registry.find(HeadroomMetrics.POD_APPLIED_CORES).tags("pod", "web-1").gauge()).isNull();
    assertThat(h.counter(HeadroomMetrics.RESIZES, "gone")).isEqualTo(1.0);
  }

  @Test
  void aDryRunDecisionAnnotatesAndCountsButNeverResizes() {
    // given
    Pod pod = h.pod("web-1", "n1", "app=750m/1500m");
    h.start();
    // when
    h.produce(decision("n1", true, change(pod.getMetadata().getUid(), NS, "web-1", 1500, 3000)));
    // then
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement()
        .satisfies(o -> assertThat(o.result()).isEqualTo(OutcomeResult.DRY_RUN));
    assertThat(h.api.requests().count(RequestMatcher.resize())).isZero();
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("1500m");
    assertThat(h.stored("web-1").getMetadata().getAnnotations().get(HeadroomKeys.STATUS_ANNOTATION))
        .contains("\"dryRun\":true").contains("\"targetLimit\":\"3000m\"");
    assertThat(h.events("CPULimitAdjusted")).singleElement().extracting(Event::getNote)
        .isEqualTo("(dry-run) would adjust 1500m → 3000m (node factor 2.00, slack 8/16 cores)");
    assertThat(h.counter(HeadroomMetrics.RESIZES, "dry-run")).isEqualTo(1.0);
    assertThat(h.counter(HeadroomMetrics.RESIZES, "applied")).isZero();
    assertThat(h.registry.get(HeadroomMetrics.POD_APPLIED_CORES).tags("pod", "web-1").gauge().value()).isEqualTo(3.0);
  }

  @Test
  void twoDecisionsForOnePodInOneBatchBecomeOnePatchWithTheNewerTarget() throws Exception {
    // given two decisions waiting before the actuator starts (one poll reads both)
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    String uid = pod.getMetadata().getUid();
    h.produce(decision("n1", false, change(uid, NS, "web-1", 1000, 2000)));
    h.produce(decision("n1", false, change(uid, NS, "web-1", 1000, 2500)));
    // when
    h.start();
    // then both records get committed...
    try (Admin admin = h.kafka.admin()) {
      await().atMost(WAIT).until(() -> committed(admin) == 2);
    }
    // ...after exactly one outcome, one patch, carrying the newer target
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> !os.isEmpty());
    assertThat(outcomes).singleElement().satisfies(o -> {
      assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED);
      assertThat(o.targetMilli()).isEqualTo(2500);
    });
    assertThat(resizes("web-1")).isEqualTo(1);
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("2500m");
  }

  /** Σ committed offsets of the group over the decisions partitions. */
  private long committed(Admin admin) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(h.groupId).partitionsToOffsetAndMetadata().get();
    return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(h.topics.decisions()))
        .filter(e -> e.getValue() != null).mapToLong(e -> e.getValue().offset()).sum();
  }

  @Test
  void aBusyNodeIsHeldToItsPatchRateWhileAnotherNodesPatchGoesThrough() {
    // given 2 patches/s per node; six pods on "busy", one on "quiet"
    h.config(enforcingWith(new RateLimits(2, 1000, 1000)));
    var busy = IntStream.range(0, 6).mapToObj(i -> {
      Pod p = h.pod("busy-" + i, "busy", "app=500m/1");
      return change(p.getMetadata().getUid(), NS, "busy-" + i, 1000, 2000);
    }).toArray(dev.kubeheadroom.schemas.PodChange[]::new);
    Pod quiet = h.pod("quiet-0", "quiet", "app=500m/1");
    h.produce(decision("busy", false, busy));
    h.produce(decision("quiet", false, change(quiet.getMetadata().getUid(), NS, "quiet-0", 1000, 2000)));
    // when
    h.start();
    h.outcomesUntil(os -> os.size() >= 7);
    // then busy's six patches take at least (6 − burst 2) / 2 per s = 2 s
    List<RequestJournal.Entry> patches = h.api.requests().entries().stream()
        .filter(e -> RequestMatcher.resize().test(e.request())).toList();
    List<Instant> busyAt = patches.stream().filter(e -> e.request().name().startsWith("busy-"))
        .map(RequestJournal.Entry::at).sorted().toList();
    Instant quietAt = patches.stream().filter(e -> e.request().name().equals("quiet-0"))
        .map(RequestJournal.Entry::at).findFirst().orElseThrow();
    assertThat(busyAt).hasSize(6);
    // (measured where the requests arrive: the first, on a cold connection, can arrive a few hundred
    // ms after its token was taken, so the bound leaves room; unlimited, six take ~0.1 s)
    assertThat(Duration.between(busyAt.get(0), busyAt.get(5))).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
    // and within any second, at most burst + rate = 4 of them
    for (int i = 0; i + 4 < busyAt.size(); i++) {
      assertThat(Duration.between(busyAt.get(i), busyAt.get(i + 4))).isGreaterThan(Duration.ofMillis(900));
    }
    // and the quiet node did not wait behind the busy one: its patch went out before busy's last
    // (held behind busy's queue it would come ≥ 2 s after busy's first, after all six; the bound is
    // not busy's third because the two decisions can come in different polls on a loaded machine)
    assertThat(quietAt).isBefore(busyAt.get(5));
  }

  @Test
  void aRestartMidStreamLosesNoDecisionAndPatchesNoPodTwice() {
    // given eight pods on one node, patched at 2/s so the first actuator is stopped mid-stream
    h.config(enforcingWith(new RateLimits(2, 1000, 1000)));
    List<String> names = IntStream.range(0, 8).mapToObj(i -> "web-" + i).toList();
    for (String name : names) {
      Pod p = h.pod(name, "n1", "app=500m/1");
      h.produce(decision("n1", false, change(p.getMetadata().getUid(), NS, name, 1000, 2000)));
    }
    Actuator first = h.start();
    h.outcomesUntil(os -> os.size() >= 3);
    // when it stops and a second one takes over the group
    first.close();
    long patchedByFirst = h.api.requests().count(RequestMatcher.resize());
    assertThat(patchedByFirst).isLessThan(names.size());
    h.start();
    // then every decision ends with an outcome...
    List<ResizeOutcome> outcomes = h.outcomesUntil(os ->
        os.stream().map(ResizeOutcome::name).distinct().count() == names.size());
    assertThat(outcomes).allSatisfy(o -> assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED));
    // ...every pod has its target, and none was patched twice
    for (String name : names) {
      assertThat(h.cpuLimit(name, 0)).as(name).isEqualTo("2");
      assertThat(resizes(name)).as(name).isEqualTo(1);
    }
  }

  @Test
  void aRedeliveredChangeWhosePodIsAlreadyAtTheTargetIsNotPatchedAgain() {
    // given a change applied once
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    var change = change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000);
    h.start();
    h.produce(decision("n1", false, change));
    h.outcomesUntil(os -> !os.isEmpty());
    // when the same decision is read again (as after a crash before the commit)
    h.produce(decision("n1", false, change));
    // then it ends applied without a second resize request or a second event
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(outcomes.get(1).result()).isEqualTo(OutcomeResult.APPLIED);
    assertThat(outcomes.get(1).message()).isEqualTo("already at target");
    assertThat(resizes("web-1")).isEqualTo(1);
    assertThat(h.events("CPULimitAdjusted")).hasSize(1);
    // nor a second status annotation: the pod's already says the same (design §8.1: updated on change)
    assertThat(h.api.requests().count(RequestMatcher.podPatch())).isEqualTo(1);
  }

  @Test
  void aPodAlreadyAtTheTargetGetsItsAnnotationRewrittenOnlyWhenTheExplanationChanged() {
    // given a change applied once, with its annotation
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    var change = change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000);
    h.start();
    h.produce(decision("n1", false, change));
    h.outcomesUntil(os -> !os.isEmpty());
    // when a later decision repeats it (same target, same node figures, a later time)
    h.produce(decision("n1", Decisions.AT.plusSeconds(5), false, change));
    h.outcomesUntil(os -> os.size() >= 2);
    // then the annotation is not written again: it keeps the time of the decision that set the limit
    assertThat(h.api.requests().count(RequestMatcher.podPatch())).isEqualTo(1);
    assertThat(annotation("web-1")).contains("\"computedAt\":\"" + Decisions.AT + "\"");
    // when one with the same target comes from other node figures (another pod booked the node)
    h.produce(new NodeDecision("n1", Decisions.AT.plusSeconds(9), 1, "proportional-v1", false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), new DecisionStats(16_000, 9_000, 7_000, 8_000, 3, 15, 1.78), List.of(),
        List.of(change)));
    h.outcomesUntil(os -> os.size() >= 3);
    // then the annotation says so: the explanation changed, though the limit did not
    assertThat(h.api.requests().count(RequestMatcher.podPatch())).isEqualTo(2);
    assertThat(annotation("web-1")).contains("\"nodePods\":15").contains("\"computedAt\":\"" + Decisions.AT.plusSeconds(9) + "\"");
    assertThat(resizes("web-1")).isEqualTo(1);
  }

  private String annotation(String name) {
    return h.api.seedClient().pods().inNamespace(NS).withName(name).get().getMetadata().getAnnotations()
        .get(HeadroomKeys.STATUS_ANNOTATION);
  }

  @Test
  void failingToAnnotateOrToWriteAnEventNeverFailsTheResize() {
    // given the API server refuses pod patches (the annotation) and event writes
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    h.api.faults().always(RequestMatcher.podPatch(), Fault.internalError());
    h.api.faults().always(RequestMatcher.of(Verb.CREATE, "events"), Fault.internalError());
    h.start();
    // when
    h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));
    // then
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement()
        .satisfies(o -> assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED));
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("2");
    assertThat(h.registry.get(ActuatorMetrics.ANNOTATION_FAILURES).counter().count()).isEqualTo(1.0);
    assertThat(h.registry.get(ActuatorMetrics.EVENT_FAILURES).counter().count()).isEqualTo(1.0);
  }

  @Test
  void everyResultIsCountedFromZeroAndAnUnreadableDecisionIsDeadLettered() {
    // given
    h.start();
    // then every result has a series before anything happened
    for (OutcomeResult r : OutcomeResult.values()) {
      assertThat(h.counter(HeadroomMetrics.RESIZES, r.wireName())).as(r.wireName()).isZero();
    }
    // when garbage arrives on decisions
    h.send(h.topics.decisions(), "n1", "{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    // then it is dead-lettered and counted, and the actuator keeps running
    var letters = h.kafka.consumeUntil(h.topics.deadLetter(), r -> !r.isEmpty(), WAIT);
    assertThat(letters.get(0).value()).contains(h.topics.decisions());
    assertThat(h.registry.get(ActuatorMetrics.DEAD_LETTERS).counter().count()).isEqualTo(1.0);
  }
}
