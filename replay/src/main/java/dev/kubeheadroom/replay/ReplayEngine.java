package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The production topology run offline with a driven clock: records go in with their event times,
 * the wall clock (and so the debounce punctuator) moves only when told. The same event log gives
 * the same decisions as the live pipeline, because it is the same code.
 */
public final class ReplayEngine implements AutoCloseable {
  private final Topics topics;
  private final Path stateDir;
  private final TopologyTestDriver driver;
  private final TestInputTopic<String, byte[]> pods;
  private final TestInputTopic<String, byte[]> nodes;
  private final TestInputTopic<String, byte[]> outcomes;
  private final TestInputTopic<String, byte[]> namespaces;
  private final TestInputTopic<String, byte[]> config;
  /** Drained and dropped: the topic's records would otherwise pile up in the driver. */
  private final TestOutputTopic<byte[], byte[]> decisionRecords;
  /** Decisions as the topology emitted them, in order, taken from the listener. */
  private final List<NodeDecision> decided = new ArrayList<>();
  private final Duration tick;
  private Instant now;

  public ReplayEngine(TopologySettings settings, TopologyListener listener, Instant start) {
    this.topics = settings.topics();
    this.tick = settings.tick();
    try {
      this.stateDir = Files.createTempDirectory("headroom-replay-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a state directory for replay", e);
    }
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "headroom-replay");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "replay:0"); // never contacted
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put("processing.exception.handler.global.enabled", true);
    TopologyListener capturing = new TopologyListener() {
      @Override
      public void deadLetter(String topic, String reason) {
        listener.deadLetter(topic, reason);
      }

      @Override
      public void decided(NodeDecision decision) {
        decided.add(decision);
        listener.decided(decision);
      }

      @Override
      public void evaluated(String node, long nanos) {
        listener.evaluated(node, nanos);
      }

      @Override
      public void nodeRemoved(String node) {
        listener.nodeRemoved(node);
      }
    };
    this.driver = new TopologyTestDriver(HeadroomTopology.build(settings, capturing), props, start);
    this.now = start;
    StringSerializer keys = new StringSerializer();
    ByteArraySerializer values = new ByteArraySerializer();
    pods = driver.createInputTopic(topics.pods(), keys, values);
    nodes = driver.createInputTopic(topics.nodes(), keys, values);
    outcomes = driver.createInputTopic(topics.outcomes(), keys, values);
    namespaces = driver.createInputTopic(topics.namespaces(), keys, values);
    config = driver.createInputTopic(topics.config(), keys, values);
    decisionRecords = driver.createOutputTopic(topics.decisions(), new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  public Instant now() {
    return now;
  }

  public Duration tick() {
    return tick;
  }

  /** Moves the clock to {@code t} (never back); due nodes are decided on the way. */
  public void advanceTo(Instant t) {
    if (t.isAfter(now)) {
      driver.advanceWallClockTime(Duration.between(now, t));
      now = t;
    }
  }

  public void advance(Duration d) {
    advanceTo(now.plus(d));
  }

  public void send(NodeEvent event) {
    byte[] value = JsonCodec.encode(event);
    if (event instanceof NodeSnapshot || event instanceof NodeRemoved) {
      nodes.pipeInput(event.node(), value, now);
    } else if (event instanceof ResizeOutcome) {
      outcomes.pipeInput(event.node(), value, now);
    } else {
      pods.pipeInput(event.node(), value, now);
    }
  }

  public void namespace(String name, NamespaceInfo info) {
    namespaces.pipeInput(name, info == null ? null : JsonCodec.encode(info), now);
  }

  public void config(ClusterConfig value) {
    config.pipeInput(HeadroomKeys.CONFIG_NAME, value == null ? null : JsonCodec.encode(value), now);
  }

  /** Pipes a raw record as it was on a topic (audit replays topics byte for byte). */
  public void pipeRaw(String topic, String key, byte[] value, Instant at) {
    advanceTo(at);
    TestInputTopic<String, byte[]> input;
    if (topic.equals(topics.pods())) {
      input = pods;
    } else if (topic.equals(topics.nodes())) {
      input = nodes;
    } else if (topic.equals(topics.outcomes())) {
      input = outcomes;
    } else if (topic.equals(topics.namespaces())) {
      input = namespaces;
    } else if (topic.equals(topics.config())) {
      input = config;
    } else {
      throw new IllegalArgumentException("not an input topic: " + topic);
    }
    input.pipeInput(key, value, at);
  }

  /**
   * Decisions emitted since the last call, in order. They are the records the topology forwarded
   * to the decisions topic, taken from its listener call right after the forward, so they are
   * not decoded back from JSON (that cost as much as a tenth of a replay).
   */
  public List<NodeDecision> drainDecisions() {
    if (!decisionRecords.isEmpty()) {
      decisionRecords.readValuesToList(); // keep the driver's captured output from growing
    }
    if (decided.isEmpty()) {
      return List.of();
    }
    List<NodeDecision> out = List.copyOf(decided);
    decided.clear();
    return out;
  }

  /** A node's booking as the topology holds it now. */
  public NodeBooking booking(String node) {
    KeyValueStore<String, NodeSnapshot> nodeStore = driver.getKeyValueStore(HeadroomTopology.NODES_STORE);
    KeyValueStore<String, PodEntry> podStore = driver.getKeyValueStore(HeadroomTopology.PODS_STORE);
    return BookingReader.read(nodeStore, podStore, node);
  }

  /** Every node the topology holds a snapshot of, sorted. */
  public List<String> nodeNames() {
    List<String> names = new ArrayList<>();
    KeyValueStore<String, NodeSnapshot> store = driver.getKeyValueStore(HeadroomTopology.NODES_STORE);
    try (KeyValueIterator<String, NodeSnapshot> it = store.all()) {
      it.forEachRemaining(kv -> names.add(kv.key));
    }
    names.sort(Comparator.naturalOrder());
    return names;
  }

  public NamespaceInfo namespace(String name) {
    KeyValueStore<String, NamespaceInfo> store = driver.getKeyValueStore(HeadroomTopology.NAMESPACES_STORE);
    return store.get(name);
  }

  /** The config the topology reads (before the settings' view is applied). */
  public ClusterConfig storedConfig() {
    KeyValueStore<String, ClusterConfig> store = driver.getKeyValueStore(HeadroomTopology.CONFIG_STORE);
    ClusterConfig c = store.get(HeadroomKeys.CONFIG_NAME);
    return c == null ? ClusterConfig.DEFAULTS : c;
  }

  @Override
  public void close() {
    try {
      driver.close();
    } finally {
      deleteQuietly(stateDir);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp dir left behind is harmless
    }
  }
}
