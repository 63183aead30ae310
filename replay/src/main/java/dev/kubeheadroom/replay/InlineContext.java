package dev.kubeheadroom.replay;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The processor context of one processor in an {@link InlineTopology}: forwards call the named
 * child directly, stores are the run's in-memory ones ({@link ObjectStore}s, the pods store a
 * {@link NodePodStore}), and a schedule is kept for the topology to fire when its clock moves.
 * Only what Headroom's processors use does anything.
 */
final class InlineContext<K, V> implements ProcessorContext<K, V> {
  /** Where forwards go: the default child and any named ones. */
  private final Map<String, Consumer<Record<?, ?>>> children;
  private final Consumer<Record<?, ?>> defaultChild;
  private final InlineTopology topology;

  InlineContext(InlineTopology topology, Consumer<Record<?, ?>> defaultChild,
      Map<String, Consumer<Record<?, ?>>> children) {
    this.topology = topology;
    this.defaultChild = defaultChild;
    this.children = children;
  }

  @Override
  public <K2 extends K, V2 extends V> void forward(Record<K2, V2> record) {
    defaultChild.accept(record);
  }

  @Override
  public <K2 extends K, V2 extends V> void forward(Record<K2, V2> record, String childName) {
    Consumer<Record<?, ?>> child = children.get(childName);
    if (child == null) {
      throw new IllegalArgumentException("no child named " + childName);
    }
    child.accept(record);
  }

  @Override
  public Optional<RecordMetadata> recordMetadata() {
    return Optional.ofNullable(topology.currentRecord());
  }

  @Override
  @SuppressWarnings("unchecked")
  public <S extends StateStore> S getStateStore(String name) {
    return (S) topology.stateStore(name);
  }

  @Override
  public Cancellable schedule(Duration interval, PunctuationType type, Punctuator callback) {
    if (type != PunctuationType.WALL_CLOCK_TIME) {
      throw new UnsupportedOperationException("inline runs drive wall-clock punctuation only");
    }
    return topology.schedule(interval.toMillis(), callback);
  }

  @Override
  public Cancellable schedule(Instant startTime, Duration interval, PunctuationType type, Punctuator callback) {
    throw new UnsupportedOperationException("inline runs do not support aligned schedules");
  }

  @Override
  public String applicationId() {
    return "headroom-inline";
  }

  @Override
  public TaskId taskId() {
    return new TaskId(0, 0);
  }

  @Override
  public Serde<?> keySerde() {
    return null;
  }

  @Override
  public Serde<?> valueSerde() {
    return null;
  }

  @Override
  public File stateDir() {
    throw new UnsupportedOperationException("inline runs keep no state directory");
  }

  @Override
  public StreamsMetrics metrics() {
    throw new UnsupportedOperationException("inline runs have no Streams metrics");
  }

  @Override
  public void commit() {
    // nothing to commit: state lives in memory
  }

  @Override
  public Map<String, Object> appConfigs() {
    return Map.of();
  }

  @Override
  public Map<String, Object> appConfigsWithPrefix(String prefix) {
    return Map.of();
  }

  @Override
  public long currentSystemTimeMs() {
    return topology.wallClockMs();
  }

  @Override
  public long currentStreamTimeMs() {
    return topology.streamTimeMs();
  }
}
