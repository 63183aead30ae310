package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pod index the bookings endpoint finds a pod's node by: kept as pods enter and leave nodes,
 * a re-created pod of the same name not unindexed by its predecessor's removal, and state written
 * before the index existed indexed at the first tick.
 */
class PodNodeIndexTest {
  @TempDir Path state;

  @Test
  void aPodIsIndexedOnItsNodeUntilItLeavesAndARecreatedOneKeepsItsEntry() {
    try (TopologyHarness h = new TopologyHarness(state)) {
      KeyValueStore<String, String> index = h.driver.getKeyValueStore(HeadroomTopology.POD_NODES_STORE);
      h.send(new NodeSnapshot("n1", 16000, "linux", false, Map.of()));
      h.send(new NodeSnapshot("n2", 16000, "linux", false, Map.of()));
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      h.send(pod("team-a", "web-1", "n1", 3000, 0)); // an update: still there
      assertThat(index.get(PodNodeIndex.key("team-a", "web-1"))).isEqualTo("n1");

      // a StatefulSet's pod re-created on n2 (a new uid) before its predecessor's removal arrives
      h.send(new PodSnapshot("uid-web-1-again", "team-a", "web-1", "n2", "Running", "Burstable", "1", 1, null, 0,
          null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, 2000, 0, false, false)),
          ResizeStatus.NONE));
      assertThat(index.get(PodNodeIndex.key("team-a", "web-1"))).isEqualTo("n2");
      h.send(new PodRemoved("uid-web-1", "team-a", "web-1", "n1"));
      assertThat(index.get(PodNodeIndex.key("team-a", "web-1"))).isEqualTo("n2");

      h.send(new PodRemoved("uid-web-1-again", "team-a", "web-1", "n2"));
      assertThat(index.get(PodNodeIndex.key("team-a", "web-1"))).isNull();
    }
  }

  @Test
  void podsBookedBeforeTheIndexExistedAreIndexedAtTheFirstTick() {
    try (TopologyHarness h = new TopologyHarness(state)) {
      KeyValueStore<String, PodEntry> pods = h.driver.getKeyValueStore(HeadroomTopology.PODS_STORE);
      KeyValueStore<String, String> index = h.driver.getKeyValueStore(HeadroomTopology.POD_NODES_STORE);
      // as a store restored from a changelog written by a version without the index
      pods.put(BookingReader.podKey("n3", "uid-old"), new PodEntry(pod("team-b", "old", "n3", 1000, 0), null, null, false));
      assertThat(index.get(PodNodeIndex.key("team-b", "old"))).isNull();

      h.advance(Duration.ofMillis(200));

      assertThat(index.get(PodNodeIndex.key("team-b", "old"))).isEqualTo("n3");
    }
  }
}
