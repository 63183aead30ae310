package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.topology.InlineTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * What a replay drives: the production topology, fed records in log order, with a wall clock the
 * replay moves. {@link Kind#INLINE}, the one production uses, calls the processors directly; the
 * tests hold it to the built Kafka Streams topology under {@code TopologyTestDriver}
 * ({@code DriverHarness}, in this module's test jar, so the shipped classpath carries no Kafka
 * Streams test utilities): the same processors, the same decisions.
 */
public interface TopologyHarness extends AutoCloseable {
  /** How a replay runs the topology: opens a harness at {@code start}. */
  @FunctionalInterface
  public interface Kind {
    /** The default: {@link InlineTopology}. */
    Kind INLINE = (settings, listener, start) -> new Inline(new InlineTopology(settings, listener, start));

    TopologyHarness open(TopologySettings settings, TopologyListener listener, Instant start);
  }

  /** A record as it is on one of the input topics. */
  void pipe(String topic, String key, byte[] value, long timestampMs);

  /** An event that never was bytes, on the node-keyed topic it belongs to. */
  void pipe(String topic, NodeEvent event, long timestampMs);

  void advanceWallClockTo(long ms);

  <V> ReadOnlyKeyValueStore<String, V> store(String name);

  @Override
  void close();

  /** The default: {@link InlineTopology}. */
  record Inline(InlineTopology topology) implements TopologyHarness {
    @Override
    public void pipe(String topic, String key, byte[] value, long timestampMs) {
      topology.pipe(topic, key, value, timestampMs);
    }

    @Override
    public void pipe(String topic, NodeEvent event, long timestampMs) {
      topology.pipe(topic, event, timestampMs);
    }

    @Override
    public void advanceWallClockTo(long ms) {
      topology.advanceWallClockTo(ms);
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
      return topology.store(name);
    }

    @Override
    public void close() {
      // memory only
    }
  }
}
