package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running exactly-once app on a real broker, with a small {@code max.request.size} (32 KiB):
 * poison pills on its input topics are dead-lettered while it keeps running (no failed stream
 * thread, no restart), and a node whose decision is larger than a request is decided in parts
 * that each fit and together are the decision the TopologyTestDriver makes.
 */
@WithKafka
class RealBrokerDeadLetterTest {
  static final int MAX_REQUEST = 32 * 1024;
  static final int BIG_NODE_PODS = 120;

  @TempDir Path stateDir;
  @TempDir Path driverDir;

  @Test
  void theRunningAppDeadLettersPoisonPillsAndSendsAnOversizedDecisionInPartsWithoutEverStopping(
      KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("dl") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    // a node whose decision (120 inputs, 120 changes) is several times the request size
    List<NodeEvent> big = new ArrayList<>();
    big.add(new NodeSnapshot("big", 256_000, "linux", false, Map.of()));
    for (int i = 0; i < BIG_NODE_PODS; i++) {
      big.add(pod("team-a", "pod-with-a-long-enough-name-" + i, "big", 100 + i, 0));
    }
    Map<String, Long> expected;
    try (TopologyHarness h = new TopologyHarness(driverDir)) {
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      big.forEach(h::send);
      h.settle();
      expected = targets(h.decisions());
    }
    assertThat(expected).hasSize(BIG_NODE_PODS);

    TopologyListener poisonous = new TopologyListener() {
      @Override
      public void nodeRemoved(String node) {
        if (node.equals("poison")) {
          throw new IllegalStateException("listener bug on " + node);
        }
      }
    };
    TopologyRunner runner = TopologyRunner.start(
        new TopologyRunner.Options(TestKafka.uniqueName("dl-app"), new dev.kubeheadroom.schemas.KafkaClientSettings(
            kafka.bootstrapServers(), Map.of("commit.interval.ms", "100",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_REQUEST))), stateDir),
        TopologySettings.defaults(topics), poisonous);
    try (KafkaProducer<String, byte[]> producer =
        kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a"))));

      // when poison pills arrive on each node-keyed topic, then the big node
      producer.send(new ProducerRecord<>(topics.pods(), "big", new byte[] {(byte) 0xff, 0x00}));
      producer.send(new ProducerRecord<>(topics.nodes(), null, JsonCodec.encode(new NodeSnapshot("big", 1, "linux", false, Map.of()))));
      producer.send(new ProducerRecord<>(topics.outcomes(), "big", "{\"type\":\"outcome\"}".getBytes(StandardCharsets.UTF_8)));
      producer.send(new ProducerRecord<>(topics.pods(), "poison", JsonCodec.encode(new NodeRemoved("poison"))));
      for (NodeEvent e : big) {
        String topic = e instanceof NodeSnapshot ? topics.nodes() : topics.pods();
        producer.send(new ProducerRecord<>(topic, e.node(), JsonCodec.encode(e)));
      }
      producer.flush();

      // then every pill is a dead letter with its reason
      List<ConsumerRecord<String, DeadLetter>> letters = kafka.consumeUntil(topics.deadLetter(),
          new StringDeserializer(), HeadroomSerdes.deadLetters().deserializer(), rs -> rs.size() >= 4,
          Duration.ofSeconds(60));
      assertThat(letters).extracting(r -> r.value().kind()).containsExactlyInAnyOrder(
          DeadLetter.Kind.UNREADABLE, DeadLetter.Kind.NULL_KEY, DeadLetter.Kind.UNREADABLE,
          DeadLetter.Kind.PROCESSING_ERROR);

      // and the big node's decision came in parts, each within the request size, that join to
      // the decision the TopologyTestDriver makes
      // (a node decided early on part of its pods is decided again once all are in: take the last)
      List<ConsumerRecord<String, byte[]>> raw = kafka.consumeUntil(topics.decisions(),
          new StringDeserializer(), new ByteArrayDeserializer(),
          rs -> joined(rs).stream().anyMatch(d -> d.inputs().size() == BIG_NODE_PODS),
          Duration.ofSeconds(60));
      assertThat(raw).allSatisfy(r -> assertThat(r.value().length).isLessThan(MAX_REQUEST));
      List<NodeDecision> decisions = joined(raw);
      NodeDecision whole = decisions.get(decisions.size() - 1);
      assertThat(raw.size()).as("records").isGreaterThan(decisions.size());
      assertThat(whole.inputs()).hasSize(BIG_NODE_PODS);
      assertThat(targets(decisions)).isEqualTo(expected);

      // and the app never stopped: no failed thread, still running
      assertThat(runner.failure()).isEmpty();
      assertThat(runner.state()).isEqualTo(KafkaStreams.State.RUNNING);
    } finally {
      runner.close();
    }
  }

  /** The decisions among the records, parts joined (a trailing incomplete decision left out). */
  private static List<NodeDecision> joined(List<ConsumerRecord<String, byte[]>> records) {
    List<NodeDecision> out = new ArrayList<>();
    List<NodeDecision> pending = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      NodeDecision d = JsonCodec.decode(r.value(), NodeDecision.class);
      pending.add(d);
      if (d.complete()) {
        out.add(NodeDecision.join(pending));
        pending.clear();
      }
    }
    return out;
  }

  private static Map<String, Long> targets(List<NodeDecision> ds) {
    Map<String, Long> m = new TreeMap<>();
    for (NodeDecision d : ds) {
      for (PodChange c : d.changes()) {
        m.put(c.name(), c.targetMilli());
      }
    }
    return m;
  }
}
