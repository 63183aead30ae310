package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted task restores its stores from the changelog topics and carries on: what Kafka
 * Streams does on restart is replayed here by hand (the driver records changelogs as outputs;
 * a fresh driver's stores are loaded from them before it processes anything).
 */
class RestartFromChangelogTest {
  @TempDir Path first;
  @TempDir Path second;

  @Test
  void aRestartedTaskRemembersInFlightTargetsAndDecidesLikeAnUninterruptedOne() {
    List<KeyValue<String, PodEntry>> pods;
    List<KeyValue<String, NodeSnapshot>> nodes;
    try (TopologyHarness h = new TopologyHarness(first)) {
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      h.send(TopologyHarness.node16());
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      h.settle();
      assertThat(h.decisions()).hasSize(1); // emitted, not yet confirmed: in flight
      pods = changelog(h, HeadroomTopology.PODS_STORE, new PodEntrySerde());
      nodes = changelog(h, HeadroomTopology.NODES_STORE, new JsonSerde<>(NodeSnapshot.class));
    }
    assertThat(pods).isNotEmpty();

    try (TopologyHarness h = new TopologyHarness(second, TopologyHarness.T0.plus(Duration.ofSeconds(5)))) {
      restore(h, HeadroomTopology.PODS_STORE, pods);
      restore(h, HeadroomTopology.NODES_STORE, nodes);
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      h.settle();
      assertThat(h.decisions()).as("the in-flight target is not sent again after restart").isEmpty();

      h.send(pod("team-a", "web-2", "n1", 6000, 0));
      h.settle();
      List<NodeDecision> ds = h.decisions();
      assertThat(ds).hasSize(1);
      // slack 8000, M 8000: web-1 → 2000 + 2000 = 4000, web-2 → 6000 + 6000 = 12000.
      assertThat(ds.get(0).changes()).extracting(c -> Map.entry(c.name(), c.targetMilli()))
          .containsExactlyInAnyOrder(Map.entry("web-1", 4000L), Map.entry("web-2", 12000L));
    }
  }

  static <V> List<KeyValue<String, V>> changelog(TopologyHarness h, String store,
      org.apache.kafka.common.serialization.Serde<V> serde) {
    String topic = "headroom-test-" + store + "-changelog";
    assertThat(h.driver.producedTopicNames()).contains(topic);
    return h.driver.createOutputTopic(topic, new StringDeserializer(), serde.deserializer())
        .readKeyValuesToList();
  }

  static <V> void restore(TopologyHarness h, String store, List<KeyValue<String, V>> log) {
    KeyValueStore<String, V> kv = h.driver.getKeyValueStore(store);
    for (KeyValue<String, V> record : log) {
      if (record.value == null) {
        kv.delete(record.key);
      } else {
        kv.put(record.key, record.value);
      }
    }
  }
}
