package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.hasSnapshotOf;
import static dev.kubeheadroom.ingest.IngestHarness.snapshotsOf;
import static dev.kubeheadroom.ingest.TestObjects.headroomConfig;
import static dev.kubeheadroom.ingest.TestObjects.limitRange;
import static dev.kubeheadroom.ingest.TestObjects.namespace;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static dev.kubeheadroom.ingest.TestObjects.specPatch;
import static dev.kubeheadroom.ingest.TestObjects.vpa;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Namespaces with their LimitRanges, VPAs, the HeadroomConfig, and optional APIs. */
@WithKafka
class ClusterObjectsTest {
  private IngestHarness harness;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  @Test
  void namespaceLabelChangeAndLimitRangeChangeRepublishTheNamespaceInfo() {
    harness.api.seedClient().namespaces().resource(namespace("team-a", Map.of())).create();
    harness.start("ingest-a");
    harness.namespacesUntil(r -> r.size() >= 1);

    // when: the namespace opts in
    harness.api.seedClient().namespaces().withName("team-a")
        .edit(n -> {
          n.getMetadata().setLabels(Map.of("kube-headroom.dev/mode", "managed"));
          return n;
        });
    harness.namespacesUntil(r -> r.size() >= 2);
    // and: a LimitRange caps container CPU at 4
    harness.api.seedClient().limitRanges().inNamespace("team-a").resource(limitRange("team-a", "caps", "4")).create();

    List<ConsumerRecord<String, NamespaceInfo>> records = harness.namespacesUntil(r -> r.size() >= 3);
    assertThat(records).extracting(ConsumerRecord::key).containsOnly("team-a");
    assertThat(records).extracting(ConsumerRecord::value).containsExactly(
        new NamespaceInfo("team-a", Map.of(), 0),
        new NamespaceInfo("team-a", Map.of("kube-headroom.dev/mode", "managed"), 0),
        new NamespaceInfo("team-a", Map.of("kube-headroom.dev/mode", "managed"), 4000));
  }

  @Test
  void vpaControllingLimitsMarksItsDeploymentsPodsAndRemovingItClearsTheMark() {
    harness.start("ingest-a");
    harness.seed(pod("team-a", "web-1", "node-1", "500m", "1")); // owned by ReplicaSet web-7c9d
    harness.podsUntil(hasSnapshotOf("web-1"));

    // when: a VPA in RequestsAndLimits mode targets Deployment web; then a RequestsOnly one replaces it
    var client = harness.api.seedClient().genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER);
    client.inNamespace("team-a").resource(vpa("team-a", "web", false)).create();
    harness.podsUntil(r -> snapshotsOf(r, "web-1").size() >= 2);
    client.inNamespace("team-a").withName("web").delete();

    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(r -> snapshotsOf(r, "web-1").size() >= 3);
    assertThat(snapshotsOf(records, "web-1")).extracting(PodSnapshot::vpaControlsLimits)
        .containsExactly(false, true, false);

    // and: a VPA that only controls requests does not mark it
    client.inNamespace("team-a").resource(vpa("team-a", "web-requests", true)).create();
    harness.seed(pod("team-a", "marker", "node-1", "100m", "200m"));
    records = harness.podsUntil(hasSnapshotOf("marker"));
    assertThat(snapshotsOf(records, "web-1")).hasSize(3);
  }

  @Test
  void validHeadroomConfigIsPublishedAndAnInvalidOneIsRefusedKeepingTheLastGood() {
    Ingest ingest = harness.start("ingest-a");
    // no object yet: a tombstone (the defaults)
    harness.configUntil(r -> r.size() >= 1);
    var configs = harness.api.seedClient().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);

    configs.resource(headroomConfig("cluster", Map.of("dryRun", false, "maxMultiplier", "4"))).create();
    List<ConsumerRecord<String, ClusterConfig>> records = harness.configUntil(r -> r.size() >= 2);
    assertThat(records.get(1).key()).isEqualTo("cluster");
    assertThat(records.get(1).value().dryRun()).isFalse();
    assertThat(records.get(1).value().maxMultiplier()).isEqualTo(4.0);

    // when: an invalid spec gets through
    configs.withName("cluster").patch(PatchContext.of(PatchType.JSON_MERGE),
        specPatch(Map.of("dryRun", false, "maxMultiplier", "150")));

    await().until(() -> harness.counter(ingest, IngestMetrics.REFUSALS) >= 1);
    // then: nothing new on the topic (a later deletion is the next record), the last good stays
    configs.withName("cluster").delete();
    records = harness.configUntil(r -> r.size() >= 3);
    assertThat(records).hasSize(3);
    assertThat(records.get(0).value()).isNull();
    assertThat(records.get(2).value()).isNull();
  }

  @Test
  void invalidHeadroomConfigLeavesTheLastGoodInForceWithTheOneLineReason() {
    Ingest ingest = harness.start("ingest-a");
    var configs = harness.api.seedClient().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
    configs.resource(headroomConfig("cluster", Map.of("maxMultiplier", "4"))).create();
    harness.configUntil(r -> r.size() >= 2);

    configs.withName("cluster").patch(PatchContext.of(PatchType.JSON_MERGE),
        specPatch(Map.of("maxMultiplier", "150")));

    await().until(() -> harness.counter(ingest, IngestMetrics.REFUSALS) >= 1);
    assertThat(ingest.configState().config().maxMultiplier()).isEqualTo(4.0);
    assertThat(ingest.configState().refusal()).isEqualTo("spec.maxMultiplier: must be at most 100, got \"150\"");
  }

  @Test
  void absentVpaAndHeadroomConfigApisDoNotBreakStartUp() {
    // given: an API server without either CRD: discovery and lists answer 404, as a real one does
    // (the double serves every group, so this is programmed)
    harness.api.faults().always(RequestMatcher.of(Verb.LIST, ""), Fault.notFound());
    harness.api.faults().always(RequestMatcher.of(Verb.LIST, "verticalpodautoscalers"), Fault.notFound());
    harness.api.faults().always(RequestMatcher.of(Verb.LIST, "headroomconfigs"), Fault.notFound());
    harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));

    Ingest ingest = harness.start("ingest-a");

    assertThat(ingest.vpaApiServed()).isFalse();
    assertThat(ingest.configApiServed()).isFalse();
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(hasSnapshotOf("web-1"));
    assertThat(snapshotsOf(records, "web-1")).singleElement()
        .satisfies(s -> assertThat(s.vpaControlsLimits()).isFalse());
    List<ConsumerRecord<String, ClusterConfig>> config = harness.configUntil(r -> r.size() >= 1);
    assertThat(config).singleElement().satisfies(r -> assertThat(r.value()).isNull());
  }

  @Test
  void apiRemovedBetweenDiscoveryAndListIsTreatedAsAbsent() {
    // given: discovery lists the VPA kind but listing it answers 404 (CRD deleted meanwhile)
    harness.api.faults().always(RequestMatcher.of(Verb.LIST, "verticalpodautoscalers"), Fault.notFound());

    Ingest ingest = harness.start("ingest-a");

    assertThat(ingest.ready()).isTrue();
    assertThat(ingest.vpaApiServed()).isFalse();
    assertThat(ingest.configApiServed()).isTrue();
  }
}
