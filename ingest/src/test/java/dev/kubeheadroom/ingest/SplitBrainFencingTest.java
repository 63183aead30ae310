package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.node;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.replay.TopologyHarness;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.PodEntry;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Split brain (design §8.6): an old leader's queued snapshot that lands after the new leader's
 * re-publish must not stay in force. Two ingest instances against the API double and a real
 * broker; the old leader's link to Kafka stalls ({@link StalledLink}) across the failover.
 */
@WithKafka
class SplitBrainFencingTest {
  private IngestHarness harness;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
  }

  @AfterEach
  void stop() {
    StalledLink.stall(false);
    harness.close();
  }

  @Test
  void theOldLeadersStaleSnapshotLandingAfterTheNewLeadersRepublishDoesNotStayInForce() {
    harness.api.seedClient().nodes().resource(node("node-1", "8")).create();
    Pod web = harness.seed(pod("team-a", "web", "node-1", "100m", "1"));
    Ingest old = harness.startLeader("ingest-a", s -> s.with(b -> b.kafka =
        new KafkaClientSettings(harness.bootstrapServers, StalledLink.CLIENT_PROPERTIES)));
    Ingest next = harness.start("ingest-b");
    harness.podsUntil(IngestHarness.hasSnapshotOf("web"));

    // the old leader sees max-cpu 2 and queues it, but its link to Kafka stalls
    StalledLink.stall(true);
    double before = harness.counter(old, IngestMetrics.PUBLISHED, "record", "pod");
    harness.update(web, p -> maxCpu(p, "2"));
    await().atMost(IngestHarness.TIMEOUT)
        .until(() -> harness.counter(old, IngestMetrics.PUBLISHED, "record", "pod") > before);

    // it loses the Lease (the standby took it over during a pause, as after the old one's lease
    // expired), and stops publishing; the new holder renews it, so the old one stands in vain
    await().ignoreExceptions().atMost(IngestHarness.TIMEOUT).until(() -> {
      harness.api.seedClient().leases().inNamespace("kube-headroom").withName("headroom-ingest")
          .edit(l -> {
            l.getSpec().setHolderIdentity("ingest-b");
            l.getSpec().setRenewTime(ZonedDateTime.now());
            l.getSpec().setLeaseTransitions(l.getSpec().getLeaseTransitions() + 1);
            return l;
          });
      return true;
    });
    await().atMost(IngestHarness.TIMEOUT).until(() -> !old.leading());
    assertThat(old.terminated()).isNotDone(); // it stands again, a standby
    await().atMost(IngestHarness.TIMEOUT).until(next::leading);

    // the pod changes again; the new leader publishes max-cpu 3
    harness.update(web, p -> maxCpu(p, "3"));
    harness.podsUntil(records -> IngestHarness.snapshotsOf(records, "web").stream()
        .anyMatch(s -> s.maxCpuMilli() == 3000));

    // when: the old leader's link recovers and its queued snapshot lands last
    StalledLink.stall(false);
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(r -> {
      List<PodSnapshot> s = IngestHarness.snapshotsOf(r, "web");
      return !s.isEmpty() && s.get(s.size() - 1).maxCpuMilli() == 2000;
    });

    // then: the new leader's records carry a higher epoch, and the topology keeps its state
    List<PodSnapshot> snapshots = IngestHarness.snapshotsOf(records, "web");
    PodSnapshot stale = snapshots.get(snapshots.size() - 1);
    PodSnapshot fresh = snapshots.stream().filter(s -> s.maxCpuMilli() == 3000).findFirst().orElseThrow();
    assertThat(stale.epoch()).isPositive().isLessThan(fresh.epoch());
    TopologyHarness topology = TopologyHarness.Factory.INLINE.open(TopologySettings.defaults(harness.topics),
        TopologyListener.NONE, Instant.EPOCH);
    for (ConsumerRecord<String, NodeEvent> r : records) {
      topology.pipe(r.topic(), r.key(), JsonCodec.encode(r.value()), r.timestamp());
    }
    PodEntry entry = topology.<PodEntry>store(HeadroomTopology.PODS_STORE)
        .get("node-1\0" + web.getMetadata().getUid());
    assertThat(entry.pod().maxCpuMilli()).isEqualTo(3000);
  }

  private static Pod maxCpu(Pod pod, String value) {
    pod.getMetadata().getAnnotations().put(HeadroomKeys.MAX_CPU_ANNOTATION, value);
    return pod;
  }
}
