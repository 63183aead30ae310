package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.booking.PodEntry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The Headroom topology, as a commented pipeline:
 *
 * <pre>
 * pods, nodes, outcomes (bytes, key: node)
 *   → decode ──unreadable──▶ dead-letter
 *   → booking (stores: nodes, pods, fences; a stale leader's record is fenced;
 *              wall-clock punctuator: debounce → policy)
 *   → decisions (key: node)
 * namespaces, config (compacted) → global stores (bump a version the punctuator compares)
 * </pre>
 *
 * Built without I/O and never starts anything: {@link TopologyRunner} owns the lifecycle, and
 * tests build the same topology with {@code TopologyTestDriver}. Every processor, store and
 * internal topic is named.
 */
public final class HeadroomTopology {
  public static final String NODES_STORE = "headroom-nodes";
  public static final String PODS_STORE = "headroom-pods";
  /** Per node, the highest ingest epoch seen ({@code NodeEvent.epoch}): older ones are fenced. */
  public static final String FENCES_STORE = "headroom-fences";
  public static final String NAMESPACES_STORE = "headroom-namespaces";
  public static final String CONFIG_STORE = "headroom-config";

  static final String PODS_SOURCE = "pods-source";
  static final String NODES_SOURCE = "nodes-source";
  static final String OUTCOMES_SOURCE = "outcomes-source";
  static final String DECODE = "decode";
  static final String BOOKING = "booking";
  static final String DECISIONS_SINK = "decisions-sink";
  static final String DEAD_LETTER_SINK = "dead-letter-sink";

  private HeadroomTopology() {}

  public static Topology build(TopologySettings settings, TopologyListener listener) {
    Topics topics = settings.topics();
    GlobalVersion globals = new GlobalVersion();
    Topology topology = new Topology();

    topology.addSource(PODS_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), topics.pods());
    topology.addSource(NODES_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), topics.nodes());
    topology.addSource(OUTCOMES_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), topics.outcomes());
    topology.addProcessor(DECODE, () -> new EventDecoder(listener), PODS_SOURCE, NODES_SOURCE, OUTCOMES_SOURCE);
    topology.addSink(DEAD_LETTER_SINK, topics.deadLetter(), new StringSerializer(),
        HeadroomSerdes.deadLetters().serializer(), DECODE);

    topology.addProcessor(BOOKING, () -> new BookingProcessor(settings, globals, listener), DECODE);
    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(NODES_STORE), Serdes.String(), new JsonSerde<>(NodeSnapshot.class))
        .withCachingEnabled(), BOOKING);
    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(PODS_STORE), Serdes.String(), new PodEntrySerde())
        .withCachingEnabled(), BOOKING);
    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(FENCES_STORE), Serdes.String(), Serdes.Long())
        .withCachingEnabled(), BOOKING);
    topology.addSink(DECISIONS_SINK, topics.decisions(), new StringSerializer(),
        HeadroomSerdes.decisions().serializer(), BOOKING);

    topology.addGlobalStore(
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(NAMESPACES_STORE),
            Serdes.String(), HeadroomSerdes.namespaces()).withLoggingDisabled(),
        "namespaces-source", new StringDeserializer(), new ByteArrayDeserializer(),
        topics.namespaces(), "namespaces-table",
        () -> new GlobalTableProcessor<>(NAMESPACES_STORE, NamespaceInfo.class, globals, listener));
    topology.addGlobalStore(
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(CONFIG_STORE),
            Serdes.String(), HeadroomSerdes.config()).withLoggingDisabled(),
        "config-source", new StringDeserializer(), new ByteArrayDeserializer(),
        topics.config(), "config-table",
        () -> new GlobalTableProcessor<>(CONFIG_STORE, ClusterConfig.class, globals, listener));
    return topology;
  }
}
