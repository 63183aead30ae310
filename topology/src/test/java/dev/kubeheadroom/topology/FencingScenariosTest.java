package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.Fixtures.withRequest;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split brain in ingest (design §8.6): an old leader's queued record that lands after the new
 * leader's re-publish must not stay in force. Leader 1 publishes with epoch 1, leader 2 with 2.
 */
class FencingScenariosTest {
  private static final long OLD = 1;
  private static final long NEW = 2;

  @TempDir Path stateDir;
  TopologyHarness h;
  final List<String> fenced = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir, TopologyHarness.T0, new TopologyListener() {
      @Override
      public void fenced(String topic, String node, long epoch, long fence) {
        fenced.add(topic + " " + node + " " + epoch + "<" + fence);
      }
    });
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private PodEntry stored(String uid) {
    KeyValueStore<String, PodEntry> pods = h.driver.getKeyValueStore(HeadroomTopology.PODS_STORE);
    return pods.get("n1\0" + uid);
  }

  @Test
  void aStaleSnapshotOfTheOldLeaderAfterTheNewLeadersRepublishLeavesTheFreshStateInForce() {
    PodSnapshot web = pod("team-a", "web-1", "n1", 2000, 0);
    h.send(node16().withEpoch(OLD));
    h.send(web.withEpoch(OLD));
    // the new leader re-publishes what it sees now: the pod at 4000m
    h.send(node16().withEpoch(NEW));
    h.send(withRequest(web, 4000).withEpoch(NEW));
    h.send(new NodeSync("n1", List.of(web.uid())).withEpoch(NEW));

    // when: the old leader's queued snapshot (3000m, seen before it lost the Lease) lands last
    h.send(withRequest(web, 3000).withEpoch(OLD));
    h.settle();

    // then: the fresh state is in force, and the decision is taken on it
    assertThat(stored(web.uid()).pod().containers().get(0).cpuRequestMilli()).isEqualTo(4000);
    assertThat(fenced).containsExactly(h.topics.pods() + " n1 1<2");
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).isNotEmpty();
    assertThat(ds.get(ds.size() - 1).inputs()).singleElement()
        .satisfies(in -> assertThat(in.requestMilli()).isEqualTo(4000));
  }

  @Test
  void aStaleSnapshotCannotBringBackAPodTheNewLeadersSyncRemoved() {
    PodSnapshot web = pod("team-a", "web-1", "n1", 2000, 0);
    PodSnapshot gone = pod("team-a", "gone", "n1", 1000, 0);
    h.send(node16().withEpoch(OLD));
    h.send(web.withEpoch(OLD));
    h.send(node16().withEpoch(NEW));
    h.send(web.withEpoch(NEW));
    h.send(new NodeSync("n1", List.of(web.uid())).withEpoch(NEW));

    h.send(gone.withEpoch(OLD));

    assertThat(stored(gone.uid())).isNull();
    assertThat(stored(web.uid())).isNotNull();
  }

  @Test
  void recordsWithoutAnEpochAreNeverFencedAndAStaleNodeSnapshotIsDropped() {
    PodSnapshot web = pod("team-a", "web-1", "n1", 2000, 0);
    h.send(node16().withEpoch(NEW));
    h.send(web.withEpoch(NEW));

    // the actuator's outcomes and a log written before epochs carry none (0): still applied
    h.send(withRequest(web, 2500));
    h.send(new ResizeOutcome("n1", web.uid(), "team-a", "web-1", OutcomeResult.QUOTA_DENIED, 3000,
        h.now, "exceeded quota"));
    // a stale node snapshot (other allocatable) of the old leader is not
    h.send(Fixtures.node("n1", 8000).withEpoch(OLD));

    assertThat(stored(web.uid()).pod().containers().get(0).cpuRequestMilli()).isEqualTo(2500);
    assertThat(stored(web.uid()).refusals()).isEqualTo(1);
    KeyValueStore<String, Object> nodes = h.driver.getKeyValueStore(HeadroomTopology.NODES_STORE);
    assertThat(nodes.get("n1")).isEqualTo(node16());
    assertThat(fenced).containsExactly(h.topics.nodes() + " n1 1<2");
  }

  @Test
  void aNewerLeaderRaisesTheFenceAndBookingsHoldEventsUnstamped() {
    PodSnapshot web = pod("team-a", "web-1", "n1", 2000, 0);
    h.send(node16().withEpoch(OLD));
    h.send(web.withEpoch(OLD));
    h.send(web.withEpoch(NEW)); // a re-publish of an unchanged pod
    h.send(web.withEpoch(OLD));

    assertThat(stored(web.uid()).pod()).isEqualTo(web);
    KeyValueStore<String, Long> fences = h.driver.getKeyValueStore(HeadroomTopology.FENCES_STORE);
    assertThat(fences.get("n1")).isEqualTo(NEW);
    assertThat(fenced).hasSize(1);
  }
}
