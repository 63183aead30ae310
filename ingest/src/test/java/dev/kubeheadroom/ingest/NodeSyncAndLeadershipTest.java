package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.hasSnapshotOf;
import static dev.kubeheadroom.ingest.TestObjects.node;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Node syncs heal missed deletes (docs/design/pipeline.md "Records"); one Lease holder publishes. */
@WithKafka
class NodeSyncAndLeadershipTest {
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
  void nodeSyncAfterRestartListsExactlyTheLivePodsPerNodeWithoutPodsDeletedWhileDown() {
    // given: two nodes, three pods, an ingest that published them, then stopped
    harness.api.seedClient().nodes().resource(node("node-1", "8")).create();
    harness.api.seedClient().nodes().resource(node("node-2", "8")).create();
    Pod a = harness.seed(pod("team-a", "a", "node-1", "100m", "1"));
    Pod b = harness.seed(pod("team-a", "b", "node-1", "100m", "1"));
    Pod c = harness.seed(pod("team-a", "c", "node-2", "100m", "1"));
    Ingest first = harness.start("ingest-a");
    harness.podsUntil(syncs(2));
    first.close();

    // when: b and c are deleted while no ingest runs, and ingest starts again
    harness.api.seedClient().pods().inNamespace("team-a").withName("b").delete();
    harness.api.seedClient().pods().inNamespace("team-a").withName("c").delete();
    harness.start("ingest-b");

    // then: the second round of syncs names only a on node-1 and nothing on node-2
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(syncs(4));
    List<NodeSync> syncs = records.stream().map(ConsumerRecord::value)
        .filter(NodeSync.class::isInstance).map(v -> (NodeSync) v.withEpoch(0)).toList();
    assertThat(syncs.subList(0, 2)).containsExactlyInAnyOrder(
        new NodeSync("node-1", List.of(a.getMetadata().getUid(), b.getMetadata().getUid())),
        new NodeSync("node-2", List.of(c.getMetadata().getUid())));
    assertThat(syncs.subList(2, 4)).containsExactlyInAnyOrder(
        new NodeSync("node-1", List.of(a.getMetadata().getUid())),
        new NodeSync("node-2", List.of()));
    assertThat(records).filteredOn(r -> r.value() instanceof NodeSync)
        .allSatisfy(r -> assertThat(r.key()).isEqualTo(r.value().node()));
    // the second leadership publishes under a higher epoch (the Lease changed holder)
    List<Long> epochs = records.stream().filter(r -> r.value() instanceof NodeSync)
        .map(r -> r.value().epoch()).toList();
    assertThat(epochs.get(0)).isPositive().isEqualTo(epochs.get(1));
    assertThat(epochs.get(2)).isGreaterThan(epochs.get(0)).isEqualTo(epochs.get(3));
  }

  @Test
  void aNewLeadersRepublishSendsEachNodesPodsTogetherThenTheSyncs() {
    // given: three nodes' pods created in turn, so the informer's LIST names them interleaved
    // and its events arrive while the new leader re-publishes
    List<String> nodes = List.of("node-1", "node-2", "node-3");
    for (int i = 0; i < 15; i++) {
      for (String n : nodes) {
        harness.seed(pod("team-a", "p" + i + "-" + n, n, "100m", "1"));
      }
    }
    harness.start("ingest-a");

    // then: the re-publish the node syncs follow sent each node's 15 pods in one run, in node order
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(syncs(3));
    int firstSync = 0;
    while (!(records.get(firstSync).value() instanceof NodeSync)) {
      firstSync++;
    }
    List<String> republished = records.subList(0, firstSync).stream()
        .filter(r -> r.value() instanceof PodSnapshot).map(ConsumerRecord::key).toList();
    assertThat(republished).hasSizeGreaterThanOrEqualTo(45);
    List<String> lastRun = republished.subList(republished.size() - 45, republished.size());
    assertThat(lastRun.subList(0, 15)).containsOnly("node-1");
    assertThat(lastRun.subList(15, 30)).containsOnly("node-2");
    assertThat(lastRun.subList(30, 45)).containsOnly("node-3");
    assertThat(records.subList(firstSync, records.size())).allMatch(r -> r.value() instanceof NodeSync);
  }

  @Test
  void nodeSyncIsRepeatedEveryResyncPeriod() {
    Pod a = harness.seed(pod("team-a", "a", "node-1", "100m", "1"));
    harness.start("ingest-a", s -> s.with(b -> b.resyncPeriod = java.time.Duration.ofMillis(500)));

    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(syncs(3));

    assertThat(records).filteredOn(r -> r.value() instanceof NodeSync).extracting(r -> r.value().withEpoch(0))
        .allSatisfy(v -> assertThat(v).isEqualTo(new NodeSync("node-1", List.of(a.getMetadata().getUid()))));
  }

  @Test
  void nodeSnapshotIsPublishedOnAllocatableChangeButNotOnHeartbeat() {
    harness.api.seedClient().nodes().resource(node("node-1", "8")).create();
    Ingest ingest = harness.start("ingest-a");
    harness.nodesUntil(r -> r.size() >= 1);

    var stored = harness.api.seedClient().nodes().withName("node-1").get();
    stored.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.NodeConditionBuilder()
        .withType("Ready").withStatus("True").withLastHeartbeatTime("2026-01-01T00:01:00Z").build()));
    stored = harness.api.seedClient().nodes().resource(stored).update();
    await().until(() -> harness.counter(ingest, IngestMetrics.CHURN, "kind", "node") >= 1);
    stored.getStatus().getAllocatable().put("cpu", new io.fabric8.kubernetes.api.model.Quantity("6"));
    harness.api.seedClient().nodes().resource(stored).update();

    List<ConsumerRecord<String, NodeEvent>> records = harness.nodesUntil(r -> r.size() >= 2);
    assertThat(records).extracting(r -> ((NodeSnapshot) r.value()).allocatableMilli()).containsExactly(8000L, 6000L);
  }

  @Test
  void onlyTheLeaderPublishesAndTheStandbyTakesOverWhenTheLeaderStops() {
    harness.seed(pod("team-a", "a", "node-1", "100m", "1"));
    Ingest one = harness.start("ingest-1");
    Ingest two = harness.start("ingest-2");
    await().until(() -> one.leading() || two.leading());
    Ingest leader = one.leading() ? one : two;
    Ingest standby = leader == one ? two : one;
    harness.podsUntil(hasSnapshotOf("a"));

    // while both run: a new pod is published once, by the leader only
    harness.seed(pod("team-a", "b", "node-1", "100m", "1"));
    harness.podsUntil(hasSnapshotOf("b"));
    assertThat(standby.leading()).isFalse();
    assertThat(harness.counter(standby, IngestMetrics.PUBLISHED, "record", "pod")).isZero();
    assertThat(harness.counter(leader, IngestMetrics.PUBLISHED, "record", "pod")).isEqualTo(2);

    // when: the leader stops (releasing the Lease)
    leader.close();

    // then: the standby leads, re-publishes what it has and goes on with new changes
    await().until(standby::leading);
    harness.seed(pod("team-a", "c", "node-1", "100m", "1"));
    harness.podsUntil(hasSnapshotOf("c"));
    assertThat(harness.counter(standby, IngestMetrics.PUBLISHED, "record", "pod")).isEqualTo(3);
    assertThat(standby.terminated()).isNotDone();
  }

  @Test
  void losingTheLeaseStopsPublishingAndTheStageStandsAgainUntilItLeadsAnew() {
    Ingest ingest = harness.start("ingest-1");
    await().until(ingest::leading);

    // when: another holder takes the Lease over (as after a long pause of this process); the
    // edit is optimistic, so it is retried when it races the leader's own renewal (409)
    holder("someone-else", java.time.ZonedDateTime.now().plusSeconds(6));

    // then: it stops leading and publishing, and does not stop (exiting brings nothing back)
    await().atMost(IngestHarness.TIMEOUT).until(() -> !ingest.leading());
    harness.seed(pod("team-a", "while-standby", "node-1", "100m", "1"));
    assertThat(ingest.terminated()).isNotDone();

    // and once the other holder's Lease expires, it leads anew and re-publishes what it missed
    await().atMost(IngestHarness.TIMEOUT).until(ingest::leading);
    harness.podsUntil(hasSnapshotOf("while-standby"));
    assertThat(ingest.terminated()).isNotDone();
  }

  @Test
  void anApiServerOutageLongerThanTheRenewDeadlineCostsTheLeaseNotTheStage() {
    Ingest ingest = harness.start("ingest-1");
    await().until(ingest::leading);

    // when: every request is answered 503 for longer than the renew deadline (3 s here)
    var down = harness.api.faults().always(dev.kubeheadroom.kubedouble.RequestMatcher.any(),
        new dev.kubeheadroom.kubedouble.Fault.Respond(503, "ServiceUnavailable", "down (injected)"));
    await().atMost(IngestHarness.TIMEOUT).until(() -> !ingest.leading());
    assertThat(ingest.terminated()).isNotDone();
    down.remove();

    // then: the same process leads again and publishes
    await().atMost(IngestHarness.TIMEOUT).until(ingest::leading);
    harness.seed(pod("team-a", "after-outage", "node-1", "100m", "1"));
    harness.podsUntil(hasSnapshotOf("after-outage"));
    assertThat(ingest.terminated()).isNotDone();
  }

  private void holder(String identity, java.time.ZonedDateTime renewed) {
    await().ignoreExceptions().until(() -> {
      harness.api.seedClient().leases().inNamespace("kube-headroom").withName("headroom-ingest")
          .edit(l -> {
            l.getSpec().setHolderIdentity(identity);
            l.getSpec().setRenewTime(renewed);
            return l;
          });
      return true;
    });
  }

  private static Predicate<List<ConsumerRecord<String, NodeEvent>>> syncs(int count) {
    return records -> records.stream().filter(r -> r.value() instanceof NodeSync).count() >= count;
  }

}
