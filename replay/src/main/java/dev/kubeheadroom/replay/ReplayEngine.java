package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeCheckpoint;
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
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The production topology run offline with a driven clock: records go in with their event times,
 * the wall clock (and so the debounce punctuator) moves only when told. The same event log gives
 * the same decisions as the live pipeline, because it is the same code (run by a {@link
 * TopologyHarness}: inline by default).
 */
public final class ReplayEngine implements AutoCloseable {
  private final Topics topics;
  private final TopologyHarness harness;
  /** Decisions as the topology emitted them, in order, taken from the listener. */
  private final List<NodeDecision> decided = new ArrayList<>();
  private final Duration tick;
  private Instant now;

  public ReplayEngine(TopologySettings settings, TopologyListener listener, Instant start) {
    this(settings, listener, start, TopologyHarness.Factory.INLINE);
  }

  public ReplayEngine(TopologySettings settings, TopologyListener listener, Instant start, TopologyHarness.Factory harness) {
    this.topics = settings.topics();
    this.tick = settings.tick();
    TopologyListener capturing = new TopologyListener() {
      @Override
      public void deadLetter(String topic, DeadLetter.Kind kind, String reason) {
        listener.deadLetter(topic, kind, reason);
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

      @Override
      public void fenced(String topic, String node, long epoch, long fence) {
        listener.fenced(topic, node, epoch, fence);
      }

      @Override
      public void checkpointed(NodeCheckpoint checkpoint) {
        listener.checkpointed(checkpoint);
      }
    };
    this.harness = harness.open(settings, capturing, start);
    this.now = start;
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
      harness.advanceWallClockTo(t.toEpochMilli());
      now = t;
    }
  }

  public void advance(Duration d) {
    advanceTo(now.plus(d));
  }

  public void send(NodeEvent event) {
    String topic;
    if (event instanceof NodeSnapshot || event instanceof NodeRemoved) {
      topic = topics.nodes();
    } else if (event instanceof ResizeOutcome) {
      topic = topics.outcomes();
    } else {
      topic = topics.pods();
    }
    harness.pipe(topic, event, now.toEpochMilli());
  }

  public void namespace(String name, NamespaceInfo info) {
    harness.pipe(topics.namespaces(), name, info == null ? null : JsonCodec.encode(info), now.toEpochMilli());
  }

  public void config(ClusterConfig value) {
    harness.pipe(topics.config(), HeadroomKeys.CONFIG_NAME, value == null ? null : JsonCodec.encode(value),
        now.toEpochMilli());
  }

  /** Pipes a raw record as it was on a topic (audit replays topics byte for byte). */
  public void pipeRaw(String topic, String key, byte[] value, Instant at) {
    advanceTo(at);
    harness.pipe(topic, key, value, at.toEpochMilli());
  }

  /** As above, with the record's partition and offset (the checkpoints' cut records them). */
  public void pipeRaw(ConsumerRecord<String, byte[]> r) {
    Instant at = Instant.ofEpochMilli(r.timestamp());
    advanceTo(at);
    harness.pipe(r.topic(), r.partition(), r.offset(), r.key(), r.value(), r.timestamp());
  }

  /** Every booked node's checkpoint at {@code at} with {@code cut}, as the topology writes them. */
  public List<NodeCheckpoint> checkpoints(Instant at, List<NodeCheckpoint.Position> cut) {
    return Checkpoints.all(harness.store(HeadroomTopology.NODES_STORE), harness.store(HeadroomTopology.PODS_STORE),
        at, cut);
  }

  /**
   * Decisions emitted since the last call, in order. They are the records the topology forwarded
   * to the decisions topic, taken from its listener call right after the forward, so they are
   * not decoded back from JSON (that cost as much as a tenth of a replay).
   */
  public List<NodeDecision> drainDecisions() {
    if (decided.isEmpty()) {
      return List.of();
    }
    List<NodeDecision> out = List.copyOf(decided);
    decided.clear();
    return out;
  }

  /**
   * Puts a checkpointed booking into the stores, before any record is piped: the replay then goes
   * on as the topology does after a restart from its changelogs (every node re-evaluated within
   * one debounce, no target pending).
   */
  public void restore(NodeCheckpoint checkpoint) {
    NodeBooking booking = Checkpoints.booking(checkpoint);
    if (booking.snapshot() != null) {
      harness.put(HeadroomTopology.NODES_STORE, booking.node(), booking.snapshot());
    }
    booking.pods().forEach((uid, entry) ->
        harness.put(HeadroomTopology.PODS_STORE, BookingReader.podKey(booking.node(), uid), entry));
  }

  /** A node's booking as the topology holds it now. */
  public NodeBooking booking(String node) {
    ReadOnlyKeyValueStore<String, NodeSnapshot> nodeStore = harness.store(HeadroomTopology.NODES_STORE);
    ReadOnlyKeyValueStore<String, PodEntry> podStore = harness.store(HeadroomTopology.PODS_STORE);
    return BookingReader.read(nodeStore, podStore, node);
  }

  /** Every node the topology holds a snapshot of, sorted. */
  public List<String> nodeNames() {
    List<String> names = new ArrayList<>();
    ReadOnlyKeyValueStore<String, NodeSnapshot> store = harness.store(HeadroomTopology.NODES_STORE);
    try (KeyValueIterator<String, NodeSnapshot> it = store.all()) {
      it.forEachRemaining(kv -> names.add(kv.key));
    }
    names.sort(Comparator.naturalOrder());
    return names;
  }

  public NamespaceInfo namespace(String name) {
    return harness.<NamespaceInfo>store(HeadroomTopology.NAMESPACES_STORE).get(name);
  }

  /** The config the topology reads (before the settings' view is applied). */
  public ClusterConfig storedConfig() {
    ClusterConfig c = harness.<ClusterConfig>store(HeadroomTopology.CONFIG_STORE).get(HeadroomKeys.CONFIG_NAME);
    return c == null ? ClusterConfig.DEFAULTS : c;
  }

  @Override
  public void close() {
    harness.close();
  }
}
