package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.GangCeiling;
import dev.kubeheadroom.schemas.GangMembers;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyNode.GlobalTable;
import dev.kubeheadroom.topology.TopologyNode.Processing;
import dev.kubeheadroom.topology.TopologyNode.Sink;
import dev.kubeheadroom.topology.TopologyNode.Source;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The Headroom topology, as a commented pipeline:
 *
 * <pre>
 * pods, nodes, outcomes (bytes, key: node)
 *   → checkpoint (reads the booking stores; each 10 min of stream time) → checkpoints (key: node@ms)
 *   → decode ──unreadable──▶ dead-letter
 *   → booking (stores: nodes, pods, fences; a stale leader's record is fenced;
 *              wall-clock punctuator: debounce → policy)
 *   → decisions (key: node)
 *   → gang-members (key: gang; a node's members of a gang and their own targets, when changed)
 * gang-members → gang (store: gangs; per gang, each node's part) → gang-ceilings (key: node; the
 *   lowest ratio among the gang's members elsewhere) → booking (store: gang-nodes; the node is due)
 * namespaces, config (compacted) → global stores (bump a version the punctuator compares)
 * </pre>
 *
 * Declared once ({@link #nodes}) and built without I/O; it never starts anything: {@link
 * TopologyRunner} owns the lifecycle and the Streams config, tests run the built topology under
 * {@code TopologyTestDriver} with that config, and replay calls the declared processors inline.
 * Every processor, store and internal topic is named.
 */
public final class HeadroomTopology {
  public static final String NODES_STORE = "headroom-nodes";
  public static final String PODS_STORE = "headroom-pods";
  /** Per pod name ({@code namespace NUL name}), its node: the bookings endpoint's lookup ({@link PodNodeIndex}). */
  public static final String POD_NODES_STORE = "headroom-pod-nodes";
  /** Per node, the highest ingest epoch seen ({@code NodeEvent.epoch}): older ones are fenced. */
  public static final String FENCES_STORE = "headroom-fences";
  public static final String NAMESPACES_STORE = "headroom-namespaces";
  public static final String CONFIG_STORE = "headroom-config";
  /** Per node, what it last reported to its gangs and the ceilings they sent it (§11.6). */
  public static final String GANG_NODES_STORE = "headroom-gang-nodes";
  /** Per gang and node, the node's part of the gang ({@link GangPart}). */
  public static final String GANGS_STORE = "headroom-gangs";
  /**
   * The checkpoint processor's progress: the last boundary it wrote, per input partition the
   * first offset it has not folded in, and per node the read order since that boundary;
   * committed with the checkpoints (a revive or restart goes on from it).
   */
  public static final String CHECKPOINT_CUT_STORE = "headroom-checkpoint-cut";

  static final String PODS_SOURCE = "pods-source";
  static final String NODES_SOURCE = "nodes-source";
  static final String OUTCOMES_SOURCE = "outcomes-source";
  static final String DECODE = "decode";
  /** Reads the booking stores; the sources' first child, so it sees a record before its booking. */
  static final String CHECKPOINT = "checkpoint";
  static final String CHECKPOINTS_SINK = "checkpoints-sink";
  /** Stream time between two checkpoints of a task's bookings. */
  public static final java.time.Duration CHECKPOINT_INTERVAL = java.time.Duration.ofMinutes(10);
  /** The booking processor: where the decoder forwards each node event it could read. */
  public static final String BOOKING = "booking";
  static final String DECISIONS_SINK = "decisions-sink";
  static final String GANG_MEMBERS_SINK = "gang-members-sink";
  static final String GANG_MEMBERS_SOURCE = "gang-members-source";
  static final String GANG_DECODE = "gang-decode";
  /** Reduces each gang: the {@code gang-members} topic's only reader. */
  public static final String GANG = "gang";
  static final String GANG_CEILINGS_SINK = "gang-ceilings-sink";
  static final String GANG_CEILINGS_SOURCE = "gang-ceilings-source";
  static final String GANG_CEILING_DECODE = "gang-ceiling-decode";
  static final String DEAD_LETTER_SINK = "dead-letter-sink";

  private HeadroomTopology() {}

  /** The topology for Kafka Streams: {@link #nodes} wired in their order. */
  public static Topology build(TopologySettings settings, TopologyListener listener) {
    return wire(nodes(settings, listener));
  }

  /**
   * The topology's nodes, declared once, in the order they are added: {@link #build} and
   * replay's inline runner both derive from this list. Each call makes fresh processors' shared
   * state (the global tables' version), so each runner gets its own.
   */
  public static List<TopologyNode> nodes(TopologySettings settings, TopologyListener listener) {
    Topics topics = settings.topics();
    GlobalVersion globals = new GlobalVersion();
    ProcessorSupplier<String, byte[], String, Object> decode = () -> new KeyedDecoder<>(
        NodeEvent.class, NodeEvent::node, "the event's node", BOOKING, DECODE, listener);
    ProcessorSupplier<String, byte[], String, NodeCheckpoint> checkpoint =
        () -> new CheckpointProcessor(CHECKPOINT_INTERVAL, listener,
            List.of(topics.pods(), topics.nodes(), topics.outcomes()));
    ProcessorSupplier<String, Object, String, Object> booking =
        () -> new BookingProcessor(settings, globals, listener);
    ProcessorSupplier<String, byte[], String, Object> gangDecode = () -> new KeyedDecoder<>(
        GangMembers.class, GangMembers::gang, "the gang", GANG, GANG_DECODE, listener);
    ProcessorSupplier<String, byte[], String, Object> ceilingDecode = () -> new KeyedDecoder<>(
        GangCeiling.class, GangCeiling::node, "the ceiling's node", BOOKING, GANG_CEILING_DECODE, listener);
    ProcessorSupplier<String, GangMembers, String, GangCeiling> gang = GangProcessor::new;
    return List.of(
        new Source(PODS_SOURCE, topics.pods()),
        new Source(NODES_SOURCE, topics.nodes()),
        new Source(OUTCOMES_SOURCE, topics.outcomes()),
        // Declared before decode so it is each source's first child, yet it reads the stores the
        // booking processor owns: Kafka Streams connects stores by name, whatever the order.
        new Processing(CHECKPOINT, checkpoint, List.of(PODS_SOURCE, NODES_SOURCE, OUTCOMES_SOURCE),
            List.of(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CHECKPOINT_CUT_STORE),
                Serdes.String(), Serdes.ByteArray()).withCachingEnabled()),
            List.of(NODES_STORE, PODS_STORE)),
        new Processing(DECODE, decode, List.of(PODS_SOURCE, NODES_SOURCE, OUTCOMES_SOURCE), List.of()),
        // Gangs (§11.6): the ceilings joined back by node enter the booking beside the events.
        new Source(GANG_CEILINGS_SOURCE, topics.gangCeilings()),
        new Processing(GANG_CEILING_DECODE, ceilingDecode, List.of(GANG_CEILINGS_SOURCE), List.of()),
        new Source(GANG_MEMBERS_SOURCE, topics.gangMembers()),
        new Processing(GANG_DECODE, gangDecode, List.of(GANG_MEMBERS_SOURCE), List.of()),
        new Sink(DEAD_LETTER_SINK, topics.deadLetter(), new StringSerializer(),
            HeadroomSerdes.deadLetters().serializer(), List.of(DECODE, GANG_CEILING_DECODE, GANG_DECODE)),
        new Processing(BOOKING, booking, List.of(DECODE, GANG_CEILING_DECODE),
            List.of(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(NODES_STORE),
                    Serdes.String(), new JsonSerde<>(NodeSnapshot.class)).withCachingEnabled(),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PODS_STORE),
                    Serdes.String(), new PodEntrySerde()).withCachingEnabled(),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(POD_NODES_STORE),
                    Serdes.String(), Serdes.String()).withCachingEnabled(),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FENCES_STORE),
                    Serdes.String(), Serdes.Long()).withCachingEnabled(),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GANG_NODES_STORE),
                    Serdes.String(), new JsonSerde<>(NodeGangs.class)).withCachingEnabled())),
        new Sink(DECISIONS_SINK, topics.decisions(), new StringSerializer(),
            HeadroomSerdes.decisions().serializer(), List.of(BOOKING)),
        new Sink(GANG_MEMBERS_SINK, topics.gangMembers(), new StringSerializer(),
            new JsonSerde<>(GangMembers.class).serializer(), List.of(BOOKING)),
        new Processing(GANG, gang, List.of(GANG_DECODE),
            List.of(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GANGS_STORE),
                Serdes.String(), new JsonSerde<>(GangPart.class)).withCachingEnabled())),
        new Sink(GANG_CEILINGS_SINK, topics.gangCeilings(), new StringSerializer(),
            new JsonSerde<>(GangCeiling.class).serializer(), List.of(GANG)),
        new Sink(CHECKPOINTS_SINK, topics.checkpoints(), new StringSerializer(),
            HeadroomSerdes.checkpoints().serializer(), List.of(CHECKPOINT), new CheckpointPartitioner()),
        new GlobalTable("namespaces-table", "namespaces-source", topics.namespaces(),
            Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(NAMESPACES_STORE),
                Serdes.String(), HeadroomSerdes.namespaces()).withLoggingDisabled(),
            () -> new GlobalTableProcessor<>(NAMESPACES_STORE, NamespaceInfo.class, globals, listener)),
        new GlobalTable("config-table", "config-source", topics.config(),
            Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(CONFIG_STORE),
                Serdes.String(), HeadroomSerdes.config()).withLoggingDisabled(),
            () -> new GlobalTableProcessor<>(CONFIG_STORE, ClusterConfig.class, globals, listener)));
  }

  @SuppressWarnings("unchecked") // the declared sink's serializers and partitioner agree on its types
  private static void addSink(Topology topology, Sink s) {
    topology.addSink(s.name(), s.topic(), (org.apache.kafka.common.serialization.Serializer<Object>) s.keys(),
        (org.apache.kafka.common.serialization.Serializer<Object>) s.values(),
        (org.apache.kafka.streams.processor.StreamPartitioner<Object, Object>) s.partitioner(),
        s.parents().toArray(String[]::new));
  }

  private static Topology wire(List<TopologyNode> nodes) {
    Topology topology = new Topology();
    List<Processing> sharing = new java.util.ArrayList<>();
    for (TopologyNode node : nodes) {
      if (node instanceof Source s) {
        topology.addSource(s.name(), new StringDeserializer(), new ByteArrayDeserializer(), s.topic());
      } else if (node instanceof Processing p) {
        topology.addProcessor(p.name(), p.supplier(), p.parents().toArray(String[]::new));
        for (StoreBuilder<?> store : p.stores()) {
          topology.addStateStore(store, p.name());
        }
        if (!p.shared().isEmpty()) {
          sharing.add(p);
        }
      } else if (node instanceof Sink s && s.partitioner() != null) {
        addSink(topology, s);
      } else if (node instanceof Sink s) {
        topology.addSink(s.name(), s.topic(), s.keys(), s.values(), s.parents().toArray(String[]::new));
      } else if (node instanceof GlobalTable g) {
        topology.addGlobalStore(g.store(), g.source(), new StringDeserializer(), new ByteArrayDeserializer(),
            g.topic(), g.name(), g.supplier());
      }
    }
    for (Processing p : sharing) { // once their owners have added them
      topology.connectProcessorAndStateStores(p.name(), p.shared().toArray(String[]::new));
    }
    return topology;
  }
}
