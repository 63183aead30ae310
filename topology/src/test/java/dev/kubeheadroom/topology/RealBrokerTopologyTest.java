package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.RealBrokerRecords.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology as a real exactly_once_v2 Kafka Streams app on a real broker (in-JVM KRaft, or a
 * container where Docker exists): the decisions equal those of the TopologyTestDriver scenario,
 * and a restart on the same state directory carries on without re-sending in-flight targets.
 */
@WithKafka
class RealBrokerTopologyTest {
  @TempDir Path stateDir;
  @TempDir Path driverDir;

  private static Map<String, Long> targets(List<NodeDecision> ds) {
    Map<String, Long> m = new TreeMap<>();
    for (NodeDecision d : ds) {
      for (PodChange c : d.changes()) {
        m.put(c.name(), c.targetMilli());
      }
    }
    return m;
  }

  @Test
  void aRealExactlyOnceTopologyDecidesWhatTheTestDriverDecidesAndSurvivesARestart(KafkaBroker kafka)
      throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("hr") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3), Duration.ofSeconds(30));
    }
    List<NodeEvent> first = List.of(
        new NodeSnapshot("n1", 16000, "linux", false, Map.of()),
        new NodeSnapshot("n2", 8000, "linux", false, Map.of()),
        pod("team-a", "web-1", "n1", 2000, 0),
        pod("team-a", "web-2", "n1", 6000, 0),
        pod("team-a", "api-1", "n2", 1000, 0));

    // Expected: the same events through the TopologyTestDriver.
    Map<String, Long> expected;
    try (TopologyHarness h = new TopologyHarness(driverDir)) {
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      first.forEach(h::send);
      h.settle();
      expected = targets(h.decisions());
    }
    assertThat(expected).hasSize(3);

    String appId = TestKafka.uniqueName("headroom-topology");
    TopologyRunner.Options options = new TopologyRunner.Options(appId,
        new KafkaClientSettings(kafka.bootstrapServers(), Map.of("commit.interval.ms", "100")), stateDir);
    TopologySettings settings = TopologySettings.defaults(topics);
    try (KafkaProducer<String, byte[]> producer =
        kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a"))));
      TopologyRunner runner = TopologyRunner.start(options, settings, TopologyListener.NONE);
      try {
        assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
        for (NodeEvent e : first) {
          producer.send(record(topics, e));
        }
        producer.flush();
        List<NodeDecision> ds = decisions(kafka, topics, 2);
        assertThat(targets(ds)).isEqualTo(expected);
      } finally {
        runner.close();
      }

      // Restart on the same state: a neighbour arrives while the app is down.
      producer.send(record(topics, pod("team-a", "api-2", "n2", 3000, 0))).get();
      TopologyRunner restarted = TopologyRunner.start(options, settings, TopologyListener.NONE);
      try {
        assertThat(restarted.awaitRunning(Duration.ofSeconds(60))).isTrue();
        List<NodeDecision> all = decisions(kafka, topics, 3);
        // Order holds within a partition only: n2's last decision is the one after the restart.
        NodeDecision after = all.stream().filter(d -> d.node().equals("n2")).reduce((a, b) -> b).orElseThrow();
        assertThat(all.stream().filter(d -> d.node().equals("n2"))).hasSize(2);
        // n2: 8000 allocatable, requests 1000 + 3000: slack 4000, M 4000 → api-1 2000, api-2 6000.
        assertThat(targets(List.of(after))).containsEntry("api-1", 2000L).containsEntry("api-2", 6000L);
        assertThat(all).as("n1's in-flight targets are not re-sent after the restart").hasSize(3);
      } finally {
        restarted.close();
      }
    }
  }

  @Test
  void nodeKeyedTopicsWithDifferentPartitionCountsAreRefusedWithAClearMessage(KafkaBroker kafka) {
    Topics topics = new Topics(TestKafka.uniqueName("bad") + ".");
    kafka.createTopics(Map.of(topics.pods(), 3, topics.decisions(), 2));
    try (Admin admin = kafka.admin()) {
      assertThatThrownBy(() -> TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3),
          Duration.ofSeconds(30)))
          .isInstanceOf(TopicBootstrap.LayoutException.class)
          .hasMessageContaining("must share one partition count")
          .hasMessageContaining(topics.decisions() + "=2")
          .hasMessageContaining(topics.pods() + "=3");
      // Without creating anything, the same layout is refused too, and missing topics are named.
      assertThatThrownBy(() -> TopicBootstrap.verify(admin, topics, Duration.ofSeconds(30)))
          .isInstanceOf(TopicBootstrap.LayoutException.class)
          .hasMessageContaining("must share one partition count");
      Topics absent = new Topics(TestKafka.uniqueName("absent") + ".");
      assertThatThrownBy(() -> TopicBootstrap.verify(admin, absent, Duration.ofSeconds(30)))
          .isInstanceOf(TopicBootstrap.LayoutException.class)
          .hasMessageContaining("topics missing").hasMessageContaining(absent.pods());
    }
  }

  private static List<NodeDecision> decisions(KafkaBroker kafka, Topics topics, int atLeast) {
    List<ConsumerRecord<String, NodeDecision>> records = kafka.consumeUntil(topics.decisions(),
        new StringDeserializer(), HeadroomSerdes.decisions().deserializer(),
        rs -> rs.size() >= atLeast, Duration.ofSeconds(60));
    return records.stream().map(ConsumerRecord::value).collect(Collectors.toList());
  }
}
