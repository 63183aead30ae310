package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.headroomConfig;
import static dev.kubeheadroom.ingest.TestObjects.specPatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HeadroomConfig status the ingest leader keeps (docs/design/config.md "Status reports observedGeneration
 * and a Ready condition"; managedPods / managedNodes from the decisions topic).
 */
@WithKafka
class ConfigStatusTest {
  private static final Duration INTERVAL = Duration.ofMillis(300);
  private static final RequestMatcher STATUS_PATCH = RequestMatcher.of(Verb.PATCH, "headroomconfigs", "status");

  private KafkaBroker kafka;
  private IngestHarness harness;
  private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> configs;

  @BeforeEach
  void start(KafkaBroker kafka) {
    this.kafka = kafka;
    harness = new IngestHarness(kafka);
    configs = harness.api.seedClient().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  @Test
  void acceptedSpecIsReadyTrueWithItsGenerationAndTheTransitionTimeStaysOnASpecChange() {
    // given: a valid config
    configs.resource(headroomConfig("cluster", Map.of("dryRun", false))).create();
    // when
    harness.start("ingest-a", s -> s.with(b -> b.statusInterval = INTERVAL));
    // then
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 1);
    Map<String, Object> ready = ready();
    assertThat(ready).containsEntry("status", "True").containsEntry("reason", "Accepted")
        .containsEntry("observedGeneration", 1);
    assertThat(status()).containsEntry("managedPods", 0).containsEntry("managedNodes", 0);
    Object transition = ready.get("lastTransitionTime");

    // when: the spec changes and is still valid
    configs.withName("cluster").patch(PatchContext.of(PatchType.JSON_MERGE), specPatch(Map.of("dryRun", true)));
    // then: the new generation is observed, Ready did not transition
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 2);
    assertThat(ready()).containsEntry("status", "True").containsEntry("lastTransitionTime", transition);
    // and: the spec is Headroom's to read only
    assertThat(configs.withName("cluster").get().<Boolean>get("spec", "dryRun")).isTrue();
    assertThat(harness.api.requests().count(Verb.PATCH, "headroomconfigs", "")).isZero();
    assertThat(harness.api.requests().count(Verb.UPDATE, "headroomconfigs", "")).isZero();
  }

  @Test
  void refusedSpecIsReadyFalseWithTheReasonWhileTheLastGoodConfigStaysInForce() {
    configs.resource(headroomConfig("cluster", Map.of("maxMultiplier", "4"))).create();
    Ingest ingest = harness.start("ingest-a", s -> s.with(b -> b.statusInterval = INTERVAL));
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 1);

    // when: an invalid spec gets through (the double has no CRD schema)
    configs.withName("cluster").patch(PatchContext.of(PatchType.JSON_MERGE),
        specPatch(Map.of("maxMultiplier", "150")));

    // then
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 2);
    assertThat(ready()).containsEntry("status", "False").containsEntry("reason", "Refused")
        .containsEntry("observedGeneration", 2);
    assertThat((String) ready().get("message")).contains("spec.maxMultiplier").doesNotContain("\n");
    assertThat(ingest.configState().config().generation()).isEqualTo(1);
    assertThat(ingest.configState().config().maxMultiplier()).isEqualTo(4.0);
    // and: a status write is not a new spec, so the refusal is counted once
    assertThat(harness.counter(ingest, IngestMetrics.REFUSALS)).isEqualTo(1);
  }

  @Test
  void managedPodsAndNodesFollowEachNodesLatestDecision() {
    configs.resource(headroomConfig("cluster", Map.of())).create();
    harness.start("ingest-a", s -> s.with(b -> b.statusInterval = INTERVAL));
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 1);

    // when: decisions for three nodes; node-2's later decision manages none
    try (KafkaProducer<String, NodeDecision> producer =
        kafka.producer(new StringSerializer(), HeadroomSerdes.decisions())) {
      for (NodeDecision d : List.of(decision("node-1", 3), decision("node-2", 2), decision("node-3", 0),
          decision("node-1", 4), decision("node-2", 0))) {
        producer.send(new ProducerRecord<>(harness.topics.decisions(), d.node(), d));
      }
    }

    // then: 4 + 0 + 0 pods on 1 node
    await().atMost(IngestHarness.TIMEOUT).untilAsserted(() -> assertThat(status())
        .containsEntry("managedPods", 4).containsEntry("managedNodes", 1));
  }

  @Test
  void nothingIsWrittenWhenNothingChangedNotEvenByANewLeader() {
    configs.resource(headroomConfig("cluster", Map.of())).create();
    Ingest first = harness.start("ingest-a", s -> s.with(b -> b.statusInterval = INTERVAL));
    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 1);
    Object transition = ready().get("lastTransitionTime");
    long writes = harness.api.requests().count(STATUS_PATCH);
    assertThat(writes).isEqualTo(1);

    // when: time passes (many intervals), a node sync runs, the lease changes hands
    await().during(INTERVAL.multipliedBy(6)).atMost(INTERVAL.multipliedBy(10))
        .until(() -> harness.api.requests().count(STATUS_PATCH) == writes);
    first.close();
    Ingest second = harness.start("ingest-b", s -> s.with(b -> b.statusInterval = INTERVAL));
    await().atMost(IngestHarness.TIMEOUT).until(second::leading);

    // then: the new leader finds the status it would write already there
    await().during(INTERVAL.multipliedBy(6)).atMost(INTERVAL.multipliedBy(10))
        .until(() -> harness.api.requests().count(STATUS_PATCH) == writes);
    assertThat(ready()).containsEntry("lastTransitionTime", transition);
  }

  @Test
  void aRefusedStatusWriteIsCountedAndRetriedWithoutDisturbingIngest() {
    configs.resource(headroomConfig("cluster", Map.of())).create();
    harness.api.faults().next(1, STATUS_PATCH, Fault.internalError());
    Ingest ingest = harness.start("ingest-a", s -> s.with(b -> b.statusInterval = INTERVAL));

    await().atMost(IngestHarness.TIMEOUT).until(() -> observedGeneration() == 1);
    assertThat(harness.counter(ingest, IngestMetrics.STATUS_FAILURES, "cause", "patch")).isEqualTo(1);
    assertThat(harness.api.requests().count(STATUS_PATCH)).isEqualTo(2);
    assertThat(ingest.ready()).isTrue();
    assertThat(ingest.terminated()).isNotDone();
  }

  private static NodeDecision decision(String node, int managedPods) {
    return new NodeDecision(node, Instant.parse("2026-01-01T00:00:00Z"), 1, "proportional-v1", true,
        dev.kubeheadroom.schemas.DecisionConfig.of(PolicyConfig.DEFAULTS),
        new dev.kubeheadroom.schemas.DecisionStats(16_000, 8_000, 8_000, 4_000, managedPods, 10, 2.0),
        List.of(), List.of());
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> status() {
    Object status = configs.withName("cluster").get().getAdditionalProperties().get("status");
    return status == null ? Map.of() : (Map<String, Object>) status;
  }

  private long observedGeneration() {
    Object value = status().get("observedGeneration");
    return value instanceof Number n ? n.longValue() : -1;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> ready() {
    return ((List<Map<String, Object>>) status().get("conditions")).stream()
        .filter(c -> "Ready".equals(c.get("type"))).findFirst().orElseThrow();
  }
}
