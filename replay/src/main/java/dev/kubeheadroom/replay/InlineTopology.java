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
 * ObjectStore}s, with a wall clock only the caller moves. For offline replay ({@code simulate},
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

  private static final Consumer<Record<?, ?>> DROPPED = r -> {};

  private final TopologyListener listener;
  private final Map<String, StateStore> stores = new HashMap<>();
  /** Input topic → the source's children (or the global table's processor) it feeds. */
  private final Map<String, Consumer<Record<?, ?>>> inputs = new HashMap<>();
  private final Map<String, Long> offsets = new HashMap<>();
  private final List<Schedule> schedules = new ArrayList<>();
  /** Where the decoder forwards what it could read: events that never were bytes enter here. */
  private final Consumer<Record<?, ?>> decoded;
  private long wallClockMs;
  private long streamTimeMs = -1;
  private Metadata current;

  InlineTopology(TopologySettings settings, TopologyListener listener, Instant start) {
    this(HeadroomTopology.nodes(settings, listener), listener, start);
  }

  InlineTopology(List<TopologyNode> nodes, TopologyListener listener, Instant start) {
    this.listener = listener;
    this.wallClockMs = start.toEpochMilli();
    Map<String, Processor<Object, Object, Object, Object>> processors = new LinkedHashMap<>();
    Map<String, Consumer<Record<?, ?>>> entries = new HashMap<>(); // node → what a record sent to it does
    Map<String, List<String>> children = new HashMap<>(); // node → its children, in declaration order
    Map<String, String> sources = new LinkedHashMap<>(); // topic → source node
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
        entries.put(s.name(), DROPPED);
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
    Consumer<Record<?, ?>> input = inputs.get(topic);
    if (input == null) {
      throw new IllegalArgumentException("not an input topic: " + topic);
    }
    enter(topic, timestampMs);
    try {
      input.accept(new Record<>(key, value, timestampMs));
    } catch (NodeFailure e) {
      failed(topic, e); // as the live processing handler: counted, skipped
    } finally {
      current = null;
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
      current = null;
    }
  }

  /** Moves the wall clock to {@code ms} (never back) and fires what came due, once each. */
  @Override
  public void advanceWallClockTo(long ms) {
    if (ms <= wallClockMs) {
      return;
    }
    wallClockMs = ms;
    for (Schedule s : List.copyOf(schedules)) {
      if (!s.cancelled && s.next <= ms) {
        s.next += ((ms - s.next) / s.intervalMs + 1) * s.intervalMs;
        try {
          s.punctuator.punctuate(ms);
        } catch (NodeFailure e) {
          failed("", e);
        }
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
    ((ObjectStore<V>) store(store)).put(key, value);
  }

  @Override
  public void close() {
    // memory only
  }

  private void addStore(StoreBuilder<?> builder) {
    stores.put(builder.name(), new ObjectStore<>(builder.name()));
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
    long offset = offsets.merge(topic, 1L, Long::sum) - 1;
    current = new Metadata(topic, 0, offset);
    streamTimeMs = Math.max(streamTimeMs, timestampMs);
  }

  RecordMetadata currentRecord() {
    return current;
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
