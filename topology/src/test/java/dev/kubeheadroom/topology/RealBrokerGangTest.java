package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
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
 * Gangs (§11.6) on a real exactly_once_v2 Kafka Streams app and broker: the reports really go
 * through gang-members (a second sub-topology, its RocksDB store scanned by prefix) and the
 * ceilings really come back through gang-ceilings to the member's node, with three partitions.
 */
@WithKafka
class RealBrokerGangTest {
  @TempDir Path stateDir;

  @Test
  void aGangsCeilingComesBackThroughKafkaToTheOtherMembersNode(KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("gang") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3), Duration.ofSeconds(30));
    }
    String appId = TestKafka.uniqueName("headroom-gangs");
    TopologyRunner.Options options = new TopologyRunner.Options(appId,
        new KafkaClientSettings(kafka.bootstrapServers(), Map.of("commit.interval.ms", "100")), stateDir);
    try (KafkaProducer<String, byte[]> producer =
        kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a",
          JsonCodec.encode(Fixtures.managedNs("team-a"))));
      TopologyRunner runner = TopologyRunner.start(options, TopologySettings.defaults(topics), TopologyListener.NONE);
      try {
        assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
        // w1 alone on n1 (10 cores on its own), w2 on n2 beside an 11-core pod (2 cores on its own)
        for (NodeEvent e : List.<NodeEvent>of(Fixtures.node("n1", 16_000), Fixtures.node("n2", 16_000),
            Fixtures.pod("team-a", "busy", "n2", 11_000, 0),
            Fixtures.pod("team-a", "w1", "n1", 1_000, 0).withGang("train"),
            Fixtures.pod("team-a", "w2", "n2", 1_000, 0).withGang("train"))) {
          producer.send(new ProducerRecord<>(e instanceof NodeSnapshot ? topics.nodes() : topics.pods(),
              e.node(), JsonCodec.encode(e)));
        }
        producer.flush();
        // then w1 is decided down to w2's ratio once n2's report has gone round
        List<ConsumerRecord<String, NodeDecision>> records = kafka.consumeUntil(topics.decisions(),
            new StringDeserializer(), HeadroomSerdes.decisions().deserializer(),
            rs -> rs.stream().flatMap(r -> r.value().changes().stream())
                .anyMatch(c -> c.name().equals("w1") && c.targetMilli() == 2_000),
            Duration.ofSeconds(90));
        NodeDecision last = records.get(records.size() - 1).value();
        assertThat(last.node()).isEqualTo("n1");
        assertThat(last.inputs()).singleElement().satisfies(in -> {
          assertThat(in.gang()).isEqualTo("team-a/train");
          assertThat(in.gangCeiling()).isEqualTo(new dev.kubeheadroom.schemas.CeilingRatio(2_000, 1_000));
        });
      } finally {
        runner.close();
      }
    }
  }
}
