package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The production topology under a TopologyTestDriver, with time moved explicitly. */
final class TopologyHarness implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  final Topics topics;
  final TopologyTestDriver driver;
  private final TestInputTopic<String, byte[]> pods;
  private final TestInputTopic<String, byte[]> nodes;
  private final TestInputTopic<String, byte[]> outcomes;
  private final TestInputTopic<String, byte[]> namespaces;
  private final TestInputTopic<String, byte[]> config;
  private final TestOutputTopic<String, NodeDecision> decisions;
  private final TestOutputTopic<String, DeadLetter> deadLetters;
  Instant now;

  TopologyHarness(Path stateDir) {
    this(stateDir, T0);
  }

  TopologyHarness(Path stateDir, Instant start) {
    this(stateDir, start, TopologyListener.NONE);
  }

  TopologyHarness(Path stateDir, Instant start, TopologyListener listener) {
    this(stateDir, start, TopologySettings.defaults(Topics.defaults()), listener);
  }

  /** The production topology and the production Streams properties (TopologyRunner's). */
  TopologyHarness(Path stateDir, Instant start, TopologySettings settings, TopologyListener listener) {
    this.topics = settings.topics();
    Properties props = TopologyRunner.properties(
        new TopologyRunner.Options("headroom-test", dev.kubeheadroom.schemas.KafkaClientSettings.of("dummy:9092"), stateDir),
        settings, listener);
    driver = new TopologyTestDriver(HeadroomTopology.build(settings, listener), props, start);
    now = start;
    var ks = new StringSerializer();
    var vs = new ByteArraySerializer();
    pods = driver.createInputTopic(topics.pods(), ks, vs);
    nodes = driver.createInputTopic(topics.nodes(), ks, vs);
    outcomes = driver.createInputTopic(topics.outcomes(), ks, vs);
    namespaces = driver.createInputTopic(topics.namespaces(), ks, vs);
    config = driver.createInputTopic(topics.config(), ks, vs);
    decisions = driver.createOutputTopic(topics.decisions(), new StringDeserializer(),
        HeadroomSerdes.decisions().deserializer());
    deadLetters = driver.createOutputTopic(topics.deadLetter(), new StringDeserializer(),
        HeadroomSerdes.deadLetters().deserializer());
  }

  void send(NodeEvent event) {
    sendAt(event, now);
  }

  /** As {@link #send}, with a record time other than the wall clock (a backlog being read). */
  void sendAt(NodeEvent event, Instant recordTime) {
    byte[] bytes = JsonCodec.encode(event);
    var topic = switch (event.getClass().getSimpleName()) {
      case "NodeSnapshot", "NodeRemoved" -> nodes;
      case "ResizeOutcome" -> outcomes;
      default -> pods;
    };
    topic.pipeInput(event.node(), bytes, recordTime);
  }

  void sendRaw(String topicName, String key, String value) {
    var topic = topicName.equals(topics.nodes()) ? nodes : pods;
    topic.pipeInput(key, value.getBytes(java.nio.charset.StandardCharsets.UTF_8), now);
  }

  void namespace(NamespaceInfo ns) {
    namespaces.pipeInput(ns.name(), JsonCodec.encode(ns), now);
  }

  void config(ClusterConfig c) {
    config.pipeInput(HeadroomKeys.CONFIG_NAME, JsonCodec.encode(c), now);
  }

  /** Moves the wall clock (and the punctuator) forward. */
  void advance(Duration d) {
    now = now.plus(d);
    driver.advanceWallClockTime(d);
  }

  /**
   * Long enough for any debounce (2 s + ≤10% jitter + a 100 ms tick) or re-evaluation after a
   * config or namespace change (spread over one 2 s debounce) to come due at the default config,
   * ticking every 100 ms as the live punctuator does.
   */
  void settle() {
    for (int tick = 0; tick < 26; tick++) {
      advance(Duration.ofMillis(100));
    }
  }

  List<NodeDecision> decisions() {
    return decisions.readValuesToList();
  }

  List<DeadLetter> deadLetters() {
    return deadLetters.readValuesToList();
  }

  /** The pod's new limits as the actuator would apply them: snapshot feedback. */
  void applyAll(List<NodeDecision> ds, java.util.Map<String, PodSnapshot> live) {
    for (NodeDecision d : ds) {
      for (PodChange change : d.changes()) {
        PodSnapshot pod = live.get(change.uid());
        long to = change.containers().get(0).toMilli();
        PodSnapshot applied = Fixtures.withLimit(pod, to);
        live.put(change.uid(), applied);
        send(applied);
      }
    }
  }

  static ClusterConfig enforcing() {
    return ClusterConfig.DEFAULTS.withDryRun(false);
  }

  static NodeSnapshot node16() {
    return Fixtures.node("n1", 16000);
  }

  @Override
  public void close() {
    driver.close();
  }
}
