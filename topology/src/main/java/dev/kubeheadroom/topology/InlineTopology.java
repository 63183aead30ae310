package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The processors of {@link HeadroomTopology} — decode, booking, the two global tables — wired the
 * same way and run synchronously in the caller's thread, over in-memory {@link ObjectStore}s,
 * with a wall clock only the caller moves. For offline replay ({@code simulate}, {@code audit}):
 * the processors, their order and their clock are the live ones; what is left out is what only a
 * running Kafka needs (serialized state, caches, changelogs, commits, metrics), which
 * {@code TopologyTestDriver} pays per record. Punctuation follows Kafka's wall-clock rules: due
 * once the clock reaches it, fired once per move with the new time, next due on the interval grid.
 * Single-threaded, like a stream task.
 */
public final class InlineTopology {
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

  private final Topics topics;
  private final Map<String, StateStore> stores = new HashMap<>();
  private final Map<String, Long> offsets = new HashMap<>();
  private final List<Schedule> schedules = new ArrayList<>();
  private final EventDecoder decoder;
  private final BookingProcessor booking;
  private final GlobalTableProcessor<NamespaceInfo> namespaces;
  private final GlobalTableProcessor<ClusterConfig> config;
  private long wallClockMs;
  private long streamTimeMs = -1;
  private Metadata current;

  public InlineTopology(TopologySettings settings, TopologyListener listener, Instant start) {
    this.topics = settings.topics();
    this.wallClockMs = start.toEpochMilli();
    for (String name : List.of(HeadroomTopology.NODES_STORE, HeadroomTopology.PODS_STORE,
        HeadroomTopology.FENCES_STORE, HeadroomTopology.NAMESPACES_STORE, HeadroomTopology.CONFIG_STORE)) {
      stores.put(name, new ObjectStore<>(name));
    }
    GlobalVersion globals = new GlobalVersion();
    Consumer<Record<?, ?>> dropped = r -> {}; // sinks: the listener has already seen the record
    namespaces = new GlobalTableProcessor<>(HeadroomTopology.NAMESPACES_STORE, NamespaceInfo.class, globals, listener);
    namespaces.init(new InlineContext<>(this, dropped, Map.of()));
    config = new GlobalTableProcessor<>(HeadroomTopology.CONFIG_STORE, ClusterConfig.class, globals, listener);
    config.init(new InlineContext<>(this, dropped, Map.of()));
    booking = new BookingProcessor(settings, globals, listener);
    booking.init(new InlineContext<>(this, dropped, Map.of()));
    decoder = new EventDecoder(listener);
    decoder.init(new InlineContext<>(this, dropped, Map.of(
        HeadroomTopology.BOOKING, this::book,
        HeadroomTopology.DEAD_LETTER_SINK, dropped)));
  }

  /** A record as it is on one of the input topics: decoded, or dead-lettered, as live. */
  public void pipe(String topic, String key, byte[] value, long timestampMs) {
    enter(topic, timestampMs);
    Record<String, byte[]> record = new Record<>(key, value, timestampMs);
    if (topic.equals(topics.pods()) || topic.equals(topics.nodes()) || topic.equals(topics.outcomes())) {
      decoder.process(record);
    } else if (topic.equals(topics.namespaces())) {
      namespaces.process(record);
    } else if (topic.equals(topics.config())) {
      config.process(record);
    } else {
      throw new IllegalArgumentException("not an input topic: " + topic);
    }
    current = null;
  }

  /**
   * An event that never was bytes (simulate projects it from a watch log): straight to the
   * booking, as the decoder would forward it. Skips only the JSON round trip, which the schema
   * tests prove lossless.
   */
  public void pipe(String topic, NodeEvent event, long timestampMs) {
    enter(topic, timestampMs);
    book(new Record<>(event.node(), event, timestampMs));
    current = null;
  }

  /** Moves the wall clock to {@code ms} (never back) and fires what came due, once each. */
  public void advanceWallClockTo(long ms) {
    if (ms <= wallClockMs) {
      return;
    }
    wallClockMs = ms;
    for (Schedule s : List.copyOf(schedules)) {
      if (!s.cancelled && s.next <= ms) {
        s.punctuator.punctuate(ms);
        s.next += ((ms - s.next) / s.intervalMs + 1) * s.intervalMs;
      }
    }
  }

  public long wallClockMs() {
    return wallClockMs;
  }

  /** One of {@link HeadroomTopology}'s stores, holding live objects. */
  @SuppressWarnings("unchecked")
  public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
    StateStore store = stores.get(name);
    if (store == null) {
      throw new IllegalArgumentException("no store named " + name);
    }
    return (ReadOnlyKeyValueStore<String, V>) store;
  }

  @SuppressWarnings("unchecked") // the decoder forwards Record<String, NodeEvent> to the booking
  private void book(Record<?, ?> record) {
    booking.process((Record<String, NodeEvent>) record);
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
