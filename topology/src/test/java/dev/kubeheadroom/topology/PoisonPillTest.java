package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No record stops the topology: on every topic it reads, garbage bytes, JSON of the wrong shape,
 * a record without a key and a record a processor throws on are each dead-lettered with the
 * reason and counted, and the next record is processed. Run under TopologyTestDriver with the
 * production Streams properties ({@link TopologyRunner#properties}), so the handlers are the live
 * ones.
 */
class PoisonPillTest {
  static final byte[] GARBAGE = {(byte) 0xff, 0x00, (byte) 0xfe, 0x7b, 0x22};
  static final String WRONG_SHAPE = "{\"type\":\"pod\",\"node\":[1,2],\"containers\":\"many\"}";

  @TempDir Path stateDir;
  final List<String> counted = new ArrayList<>();

  /** Metrics code the processors call; it throws for node "poison", as any bug might. */
  final TopologyListener listener = new TopologyListener() {
    @Override
    public void deadLetter(String topic, DeadLetter.Kind kind, String reason) {
      counted.add(topic + " " + kind.wireName());
    }

    @Override
    public void nodeRemoved(String node) {
      if (node.equals("poison")) {
        throw new IllegalStateException("listener bug on " + node);
      }
    }

    @Override
    public void decided(NodeDecision decision) {
      if (decision.node().equals("poison")) {
        throw new IllegalStateException("listener bug deciding " + decision.node());
      }
    }
  };

  private TopologyHarness harness() {
    return new TopologyHarness(stateDir, TopologyHarness.T0, TopologySettings.defaults(Topics.defaults()), listener);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"pods", "nodes", "outcomes"})
  void everyPoisonPillOnANodeKeyedTopicIsDeadLetteredWithItsReasonAndTheNextRecordIsProcessed(String which)
      throws Exception {
    try (TopologyHarness h = harness()) {
      // given a managed namespace, and a node-keyed topic
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      String topic = switch (which) {
        case "pods" -> h.topics.pods();
        case "nodes" -> h.topics.nodes();
        default -> h.topics.outcomes();
      };
      TestInputTopic<String, byte[]> in = h.driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());

      // when four poison pills arrive on it
      in.pipeInput("n1", GARBAGE, h.now);
      in.pipeInput("n1", WRONG_SHAPE.getBytes(StandardCharsets.UTF_8), h.now);
      in.pipeInput(null, JsonCodec.encode(pod("team-a", "keyless", "n1", 500, 0)), h.now);
      in.pipeInput("poison", JsonCodec.encode(new NodeRemoved("poison")), h.now);
      // and then good records
      h.send(TopologyHarness.node16());
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      h.settle();

      // then each pill is a dead letter saying where it came from and why
      List<DeadLetter> letters = h.deadLetters();
      assertThat(letters).extracting(DeadLetter::kind).containsExactly(
          DeadLetter.Kind.UNREADABLE, DeadLetter.Kind.UNREADABLE, DeadLetter.Kind.NULL_KEY,
          DeadLetter.Kind.PROCESSING_ERROR);
      assertThat(letters).allSatisfy(dl -> assertThat(dl.topic()).isEqualTo(topic));
      assertThat(letters).extracting(DeadLetter::offset).containsExactly(0L, 1L, 2L, 3L);
      assertThat(letters.get(0).reason()).startsWith("NodeEvent:");
      assertThat(letters.get(1).payload()).isEqualTo(WRONG_SHAPE);
      assertThat(letters.get(2).reason()).contains("no key");
      DeadLetter thrown = letters.get(3);
      assertThat(thrown.key()).isEqualTo("poison");
      assertThat(thrown.processor()).isEqualTo(HeadroomTopology.BOOKING);
      assertThat(thrown.reason()).contains("IllegalStateException").contains("listener bug on poison");
      assertThat(thrown.payload()).contains("node-removed");
      // counted, by topic and reason
      assertThat(counted).containsExactly(topic + " unreadable", topic + " unreadable",
          topic + " null-key", topic + " processing-error");
      // and the node behind them is still decided
      assertThat(h.decisions()).singleElement().satisfies(d -> {
        assertThat(d.node()).isEqualTo("n1");
        assertThat(d.changes()).extracting(c -> c.name()).containsExactly("web-1");
      });
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"namespaces", "config"})
  void poisonPillsOnAGlobalTableAreCountedAndSkippedAndTheNextRecordIsApplied(String which) {
    try (TopologyHarness h = harness()) {
      String topic = which.equals("namespaces") ? h.topics.namespaces() : h.topics.config();
      TestInputTopic<String, byte[]> in = h.driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());

      // when the pills arrive (a global thread cannot write dead letters: they are counted)
      in.pipeInput("team-a", GARBAGE, h.now);
      in.pipeInput("team-a", "{\"labels\":\"not a map\",\"name\":7}".getBytes(StandardCharsets.UTF_8), h.now);
      in.pipeInput(null, JsonCodec.encode(which.equals("namespaces") ? managedNs("team-a")
          : TopologyHarness.enforcing()), h.now);
      // and then the good records
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      h.send(TopologyHarness.node16());
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      h.settle();

      // then they are counted by reason, and the table took the good record after them
      assertThat(counted).containsExactly(topic + " unreadable", topic + " unreadable", topic + " null-key");
      assertThat(h.decisions()).singleElement().satisfies(d -> assertThat(d.dryRun()).isFalse());
    }
  }

  @org.junit.jupiter.api.Test
  void aNodeWhoseDecisionThrowsIsDeadLetteredAndTheNodesDueWithItAreStillDecided() {
    try (TopologyHarness h = harness()) {
      // given three nodes due in the same tick, the middle one ("poison") failing to decide
      h.config(TopologyHarness.enforcing());
      h.namespace(managedNs("team-a"));
      for (String node : List.of("a-node", "poison", "z-node")) {
        h.send(Fixtures.node(node, 8000));
        h.send(pod("team-a", "web-" + node, node, 1000, 0));
      }

      // when the debounce expires
      h.settle();

      // then the poison node is a dead letter naming it, and both others are decided
      assertThat(h.deadLetters()).singleElement().satisfies(dl -> {
        assertThat(dl.kind()).isEqualTo(DeadLetter.Kind.PROCESSING_ERROR);
        assertThat(dl.key()).isEqualTo("poison");
        assertThat(dl.processor()).isEqualTo(HeadroomTopology.BOOKING);
        assertThat(dl.reason()).contains("listener bug deciding poison");
      });
      assertThat(h.decisions()).extracting(NodeDecision::node).contains("a-node", "z-node");
      assertThat(counted).containsExactly(" processing-error");
    }
  }
}
