package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.NodeFailure;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyNode;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The nodes {@link HeadroomTopology#nodes} declares — the same processors along the same edges
 * as the built topology — run synchronously in the caller's thread, over in-memory {@link
 * ObjectStore}s (the pods store a {@link NodePodStore}), with a wall clock only the caller moves. For offline replay ({@code simulate},
 * {@code audit}): what is left out is what only a running Kafka needs (serialized state, caches,
 * changelogs, commits, metrics), which {@code TopologyTestDriver} pays per record; sinks drop
 * what reaches them (the listener has seen it). Punctuation follows Kafka's wall-clock rules: due
 * once the clock reaches it, fired once per move with the new time, next due on the interval
 * grid. Single-threaded, like a stream task.
 */
final class InlineTopology implements TopologyHarness {
  /** A scheduled punctuator and when it is next due. */
  private static final class Schedule {
    final long intervalMs;
    final Punctuator punctuator;
    long next;
    boolean cancelled;

    Schedule(long intervalMs, Punctuator punctuator, long next) {
      this.intervalMs = intervalMs;
      this.punctuator = punctuator;
      this.next = next;
    }
  }

  private record Metadata(String topic, int partition, long offset) implements RecordMetadata {}

  /** A record a sink wrote to a topic the topology itself reads (the gang repartitions). */
  private record Looped(String topic, String key, byte[] value, long timestampMs) {}

  private static final Consumer<Record<?, ?>> DROPPED = r -> {};

  private final TopologyListener listener;
  private final Map<String, StateStore> stores = new HashMap<>();
  /** Input topic → the source's children (or the global table's processor) it feeds. */
  private final Map<String, Consumer<Record<?, ?>>> inputs = new HashMap<>();
  /** Per input topic, the next offset (a counter in place: a boxed merge per record showed up). */
  private final Map<String, long[]> offsets = new HashMap<>();
  private final List<Schedule> schedules = new ArrayList<>();
  /** What sinks wrote to the topology's own input topics, read once the current work is done. */
  private final java.util.ArrayDeque<Looped> looped = new java.util.ArrayDeque<>();
  private boolean draining;
  /** Where the decoder forwards what it could read: events that never were bytes enter here. */
  private final Consumer<Record<?, ?>> decoded;
  private long wallClockMs;
  private long streamTimeMs = -1;
  /**
   * The record being processed: its topic (null between records) and offset; its metadata object
   * is made only when a processor asks (rarely: a fenced event), not per record.
   */
  private String currentTopic;
  private int currentPartition;
  private long currentOffset;

  InlineTopology(TopologySettings settings, TopologyListener listener, Instant start) {
    this(HeadroomTopology.nodes(settings, listener), listener, start);
  }

  /**
   * The declared processors without the checkpoint writer and its sink: an audit's replay, which
   * keeps no checkpoint it would write, then skips a scan of every booking at each boundary it
   * crosses (two thirds of an audit's CPU at 5,000 nodes). The writer forwards nothing but
   * checkpoints and keeps its own store, so nothing on the decision path changes.
   */
  static final TopologyHarness.Factory WITHOUT_CHECKPOINTS = (settings, listener, start) -> new InlineTopology(
      withoutWriterOf(HeadroomTopology.nodes(settings, listener), settings.topics().checkpoints()), listener, start);

  /** {@code nodes} without the sink to {@code topic} and the processors that feed it. */
  static List<TopologyNode> withoutWriterOf(List<TopologyNode> nodes, String topic) {
    java.util.Set<String> writers = new java.util.HashSet<>();
    nodes.forEach(n -> {
      if (n instanceof TopologyNode.Sink s && s.topic().equals(topic)) {
        writers.addAll(s.parents());
      }
    });
    return nodes.stream().filter(n -> !(n instanceof TopologyNode.Sink s && s.topic().equals(topic))
        && !(n instanceof TopologyNode.Processing p && writers.contains(p.name()))).toList();
  }

  InlineTopology(List<TopologyNode> nodes, TopologyListener listener, Instant start) {
    this.listener = listener;
    this.wallClockMs = start.toEpochMilli();
    Map<String, Processor<Object, Object, Object, Object>> processors = new LinkedHashMap<>();
    Map<String, Consumer<Record<?, ?>>> entries = new HashMap<>(); // node → what a record sent to it does
    Map<String, List<String>> children = new HashMap<>(); // node → its children, in declaration order
    Map<String, String> sources = new LinkedHashMap<>(); // topic → source node
    java.util.Set<String> read = new java.util.HashSet<>();
    nodes.forEach(n -> {
      if (n instanceof TopologyNode.Source s) {
        read.add(s.topic());
      }
    });
    for (TopologyNode node : nodes) {
      if (node instanceof TopologyNode.Source s) {
        sources.put(s.topic(), s.name());
      } else if (node instanceof TopologyNode.Processing p) {
        Processor<Object, Object, Object, Object> processor = processor(p.supplier().get());
        processors.put(p.name(), processor);
        entries.put(p.name(), r -> processor.process(record(r)));
        p.parents().forEach(parent -> children.computeIfAbsent(parent, k -> new ArrayList<>()).add(p.name()));
        p.stores().forEach(this::addStore);
      } else if (node instanceof TopologyNode.Sink s) {
        // A topic the topology reads back (a repartition) is written through the sink's own
        // serializer and read as Kafka would deliver it: after the work that wrote it. Others drop.
        entries.put(s.name(), read.contains(s.topic()) ? loopBack(s) : DROPPED);
        s.parents().forEach(parent -> children.computeIfAbsent(parent, k -> new ArrayList<>()).add(s.name()));
      } else if (node instanceof TopologyNode.GlobalTable g) {
        Processor<Object, Object, Object, Object> processor = processor(g.supplier().get());
        processors.put(g.name(), processor);
        inputs.put(g.topic(), r -> processor.process(record(r)));
        addStore(g.store());
      }
    }
    processors.forEach((name, processor) -> {
      Map<String, Consumer<Record<?, ?>>> named = new HashMap<>();
      children.getOrDefault(name, List.of()).forEach(child -> named.put(child, entries.get(child)));
      processor.init(new InlineContext<>(this, fanOut(children.get(name), entries), named));
    });
    sources.forEach((topic, source) -> inputs.put(topic, fanOut(children.get(source), entries)));
    this.decoded = entries.get(HeadroomTopology.BOOKING);
  }

  /** A record as it is on one of the input topics: decoded, or dead-lettered, as live. */
  @Override
  public void pipe(String topic, String key, byte[] value, long timestampMs) {
    read(topic, key, value, timestampMs);
    drain();
  }

  /** As above, the record's metadata its own partition and offset. */
  @Override
  public void pipe(String topic, int partition, long offset, String key, byte[] value, long timestampMs) {
    read(topic, new Metadata(topic, partition, offset), key, value, timestampMs);
    drain();
  }

  private void read(String topic, String key, byte[] value, long timestampMs) {
    read(topic, null, key, value, timestampMs);
  }

  private void read(String topic, Metadata at, String key, byte[] value, long timestampMs) {
    Consumer<Record<?, ?>> input = inputs.get(topic);
    if (input == null) {
      throw new IllegalArgumentException("not an input topic: " + topic);
    }
    enter(topic, timestampMs);
    if (at != null) {
      currentPartition = at.partition();
      currentOffset = at.offset();
    }
    try {
      input.accept(new Record<>(key, value, timestampMs));
    } catch (NodeFailure e) {
      failed(topic, e); // as the live processing handler: counted, skipped
    } finally {
      currentTopic = null;
    }
  }

  @SuppressWarnings("unchecked") // the declared sink's serializers take what its parents forward
  private Consumer<Record<?, ?>> loopBack(TopologyNode.Sink s) {
    org.apache.kafka.common.serialization.Serializer<Object> keys =
        (org.apache.kafka.common.serialization.Serializer<Object>) s.keys();
    org.apache.kafka.common.serialization.Serializer<Object> values =
        (org.apache.kafka.common.serialization.Serializer<Object>) s.values();
    return r -> looped.add(new Looped(s.topic(),
        new String(keys.serialize(s.topic(), r.key()), java.nio.charset.StandardCharsets.UTF_8),
        values.serialize(s.topic(), r.value()), r.timestamp()));
  }

  /** Reads what sinks looped back, in the order written, until nothing more is written. */
  private void drain() {
    if (draining) {
      return;
    }
    draining = true;
    try {
      for (Looped r = looped.poll(); r != null; r = looped.poll()) {
        read(r.topic(), r.key(), r.value(), r.timestampMs());
      }
    } finally {
      draining = false;
    }
  }

  /**
   * An event that never was bytes (simulate projects it from a watch log): straight to the
   * booking, as the decoder would forward it. Skips only the JSON round trip, which the schema
   * tests prove lossless.
   */
  @Override
  public void pipe(String topic, NodeEvent event, long timestampMs) {
    enter(topic, timestampMs);
    try {
      decoded.accept(new Record<>(event.node(), event, timestampMs));
    } catch (NodeFailure e) {
      failed(topic, e);
    } finally {
      currentTopic = null;
    }
    drain();
  }

  /** Moves the wall clock to {@code ms} (never back) and fires what came due, once each. */
  @Override
  public void advanceWallClockTo(long ms) {
    if (ms <= wallClockMs) {
      return;
    }
    wallClockMs = ms;
    // Those scheduled so far, by index rather than a copy per move: a punctuator may schedule
    // another (appended, first due later), never removes one (a cancel only marks it).
    for (int i = 0, n = schedules.size(); i < n; i++) {
      Schedule s = schedules.get(i);
      if (!s.cancelled && s.next <= ms) {
        s.next += ((ms - s.next) / s.intervalMs + 1) * s.intervalMs;
        try {
          s.punctuator.punctuate(ms);
        } catch (NodeFailure e) {
          failed("", e);
        }
        drain();
      }
    }
  }

  /** What {@code DeadLetterProcessingHandler} does live, minus the record nobody reads here. */
  private void failed(String topic, NodeFailure e) {
    listener.deadLetter(topic, DeadLetter.Kind.PROCESSING_ERROR, e.reason());
  }

  long wallClockMs() {
    return wallClockMs;
  }

  /** One of the declared stores, holding live objects. */
  @Override
  @SuppressWarnings("unchecked")
  public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
    StateStore store = stores.get(name);
    if (store == null) {
      throw new IllegalArgumentException("no store named " + name);
    }
    return (ReadOnlyKeyValueStore<String, V>) store;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V> void put(String store, String key, V value) {
    ((org.apache.kafka.streams.state.KeyValueStore<String, V>) store(store)).put(key, value);
  }

  @Override
  public void close() {
    // memory only
  }

  /** The pods store held per node (a booking step hands it the node's table), the others as keys. */
  private void addStore(StoreBuilder<?> builder) {
    String name = builder.name();
    stores.put(name, HeadroomTopology.PODS_STORE.equals(name) ? new NodePodStore(name) : new ObjectStore<>(name));
  }

  /** What a forward without a child name does: every child gets the record, as in Kafka. */
  private static Consumer<Record<?, ?>> fanOut(List<String> names, Map<String, Consumer<Record<?, ?>>> entries) {
    if (names == null || names.isEmpty()) {
      return DROPPED;
    }
    if (names.size() == 1) {
      return entries.get(names.get(0));
    }
    List<Consumer<Record<?, ?>>> all = names.stream().map(entries::get).toList();
    return r -> all.forEach(c -> c.accept(r));
  }

  @SuppressWarnings("unchecked") // the declared edges carry what each processor reads
  private static Processor<Object, Object, Object, Object> processor(Processor<?, ?, ?, ?> p) {
    return (Processor<Object, Object, Object, Object>) p;
  }

  @SuppressWarnings("unchecked")
  private static Record<Object, Object> record(Record<?, ?> r) {
    return (Record<Object, Object>) r;
  }

  private void enter(String topic, long timestampMs) {
    long offset = offsets.computeIfAbsent(topic, t -> new long[1])[0]++;
    currentTopic = topic;
    currentPartition = 0;
    currentOffset = offset;
    streamTimeMs = Math.max(streamTimeMs, timestampMs);
  }

  RecordMetadata currentRecord() {
    return currentTopic == null ? null : new Metadata(currentTopic, currentPartition, currentOffset);
  }

  StateStore stateStore(String name) {
    return stores.get(name);
  }

  long streamTimeMs() {
    return streamTimeMs;
  }

  /** Kafka's wall-clock rule: first due one interval from now. */
  Cancellable schedule(long intervalMs, Punctuator punctuator) {
    Schedule s = new Schedule(intervalMs, punctuator, wallClockMs + intervalMs);
    schedules.add(s);
    return () -> s.cancelled = true;
  }
}
