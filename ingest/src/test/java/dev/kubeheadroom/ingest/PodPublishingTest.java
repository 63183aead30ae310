package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.hasSnapshotOf;
import static dev.kubeheadroom.ingest.IngestHarness.snapshotsOf;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pods → the pods topic (docs/design/pipeline.md "Records": one record per relevant change, key = node). The
 * pods topic has one partition here, so "nothing was published for X" is shown by a later
 * marker pod's snapshot arriving after X's change.
 */
@WithKafka
class PodPublishingTest {
  private IngestHarness harness;
  private Ingest ingest;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
    ingest = harness.startLeader("ingest-a");
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  @Test
  void boundPodIsPublishedOnceKeyedByItsNode() {
    harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));

    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(hasSnapshotOf("web-1"));

    // (a node sync, published once this instance leads, may share the topic: it is not a snapshot)
    assertThat(records).filteredOn(r -> r.value() instanceof PodSnapshot).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("node-1");
      PodSnapshot s = (PodSnapshot) r.value();
      assertThat(s.node()).isEqualTo("node-1");
      assertThat(s.containers()).singleElement().satisfies(c -> {
        assertThat(c.cpuRequestMilli()).isEqualTo(500);
        assertThat(c.cpuLimitMilli()).isEqualTo(1000);
      });
      assertThat(s.owners()).singleElement().satisfies(o -> assertThat(o.name()).isEqualTo("web-7c9d"));
    });
    assertThat(harness.counter(ingest, IngestMetrics.PUBLISHED, "record", "pod")).isEqualTo(1);
  }

  @Test
  void statusOnlyChangePublishesNothing() {
    Pod stored = harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));
    harness.podsUntil(hasSnapshotOf("web-1"));

    // when: the kubelet reports a new IP and a fresh Ready transition (new resourceVersion)
    harness.update(stored, p -> {
      p.getStatus().setPodIP("10.0.0.99");
      p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready").withStatus("False")
          .withLastTransitionTime("2026-01-01T01:00:00Z").build()));
      return p;
    });
    await().until(() -> harness.counter(ingest, IngestMetrics.CHURN, "kind", "pod") >= 1);
    harness.seed(pod("team-a", "marker", "node-1", "100m", "200m"));

    // then: the marker follows the first snapshot directly
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(hasSnapshotOf("marker"));
    assertThat(snapshotsOf(records, "web-1")).hasSize(1);
    assertThat(records).hasSize(2);
  }

  @Test
  void requestChangePublishesANewSnapshot() {
    Pod stored = harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));
    harness.podsUntil(hasSnapshotOf("web-1"));

    harness.update(stored, p -> {
      p.getSpec().getContainers().get(0).getResources().getRequests().put("cpu", new Quantity("750m"));
      return p;
    });

    List<ConsumerRecord<String, NodeEvent>> records =
        harness.podsUntil(r -> snapshotsOf(r, "web-1").size() >= 2);
    assertThat(snapshotsOf(records, "web-1")).extracting(s -> s.containers().get(0).cpuRequestMilli())
        .containsExactly(500L, 750L);
  }

  @Test
  void unboundPodPublishesNothingUntilBound() {
    Pod pending = pod("team-a", "web-1", null, "500m", "1");
    pending.getStatus().setPhase("Pending");
    Pod stored = harness.seed(pending);
    harness.seed(pod("team-a", "marker", "node-1", "100m", "200m"));
    List<ConsumerRecord<String, NodeEvent>> before = harness.podsUntil(hasSnapshotOf("marker"));
    assertThat(snapshotsOf(before, "web-1")).isEmpty();

    // when: the scheduler binds it
    harness.update(stored, p -> {
      p.getSpec().setNodeName("node-2");
      return p;
    });

    List<ConsumerRecord<String, NodeEvent>> after = harness.podsUntil(hasSnapshotOf("web-1"));
    assertThat(after).filteredOn(r -> r.value() instanceof PodSnapshot s && s.name().equals("web-1"))
        .singleElement().satisfies(r -> assertThat(r.key()).isEqualTo("node-2"));
  }

  @Test
  void deletedPodIsPublishedAsPodRemoved() {
    Pod stored = harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));
    harness.podsUntil(hasSnapshotOf("web-1"));

    harness.api.seedClient().pods().inNamespace("team-a").withName("web-1").delete();

    List<ConsumerRecord<String, NodeEvent>> records =
        harness.podsUntil(r -> r.stream().anyMatch(x -> x.value() instanceof PodRemoved));
    assertThat(records.get(records.size() - 1)).satisfies(r -> {
      assertThat(r.key()).isEqualTo("node-1");
      // stamped with the leader's epoch (SplitBrainFencingTest); the rest as projected
      assertThat(r.value().epoch()).isPositive();
      assertThat(r.value().withEpoch(0))
          .isEqualTo(new PodRemoved(stored.getMetadata().getUid(), "team-a", "web-1", "node-1"));
    });
  }

  @Test
  void deferredResizeConditionTravelsInTheSnapshot() {
    try (KubeletDouble kubelet = KubeletDouble.start(harness.api)) {
      kubelet.answerResizes("node-1", KubeletDouble.ResizeAnswer.DEFERRED);
      harness.seed(pod("team-a", "web-1", "node-1", "500m", "1"));
      harness.podsUntil(hasSnapshotOf("web-1"));

      // when: a resize the kubelet cannot fit right now (it raises the request: a kubelet admits
      // requests against allocatable, so a limit-only change is never Deferred)
      harness.api.client().pods().inNamespace("team-a").withName("web-1").subresource("resize")
          .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"app\","
              + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"256Mi\"},"
              + "\"limits\":{\"cpu\":\"3\",\"memory\":\"256Mi\"}}}]}}");

      List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(
          r -> snapshotsOf(r, "web-1").stream().anyMatch(s -> s.resize() == ResizeStatus.DEFERRED));
      PodSnapshot last = snapshotsOf(records, "web-1").get(snapshotsOf(records, "web-1").size() - 1);
      assertThat(last.resize()).isEqualTo(ResizeStatus.DEFERRED);
      assertThat(harness.registry(ingest).get(IngestMetrics.DEFERRED).gauge().value()).isEqualTo(1.0);
    }
  }
}
