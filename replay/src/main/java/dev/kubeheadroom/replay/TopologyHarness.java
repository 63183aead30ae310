package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * What a replay drives: the production topology, fed records in log order, with a wall clock the
 * replay moves. Two ways to run it, both derived from {@code HeadroomTopology.nodes} and opened
 * only through {@code Kind.open}, with the same processors and the same decisions (a test holds
 * them to that): {@link Kind#INLINE}, the default, calls them directly ({@code InlineTopology});
 * {@link Kind#TEST_DRIVER} runs the built Kafka Streams topology under {@code TopologyTestDriver}
 * with the production Streams config, serialized, cached, changelogged stores and a commit per
 * record ({@code DriverHarness}) — kept as the yardstick.
 */
public interface TopologyHarness extends AutoCloseable {
  /** How a replay runs the topology. */
  public enum Kind {
    INLINE,
    TEST_DRIVER;

    TopologyHarness open(TopologySettings settings, TopologyListener listener, Instant start) {
      return this == INLINE
          ? new InlineTopology(settings, listener, start)
          : new DriverHarness(settings, listener, start);
    }
  }

  /** A record as it is on one of the input topics. */
  void pipe(String topic, String key, byte[] value, long timestampMs);

  /** An event that never was bytes, on the node-keyed topic it belongs to. */
  void pipe(String topic, NodeEvent event, long timestampMs);

  void advanceWallClockTo(long ms);

  <V> ReadOnlyKeyValueStore<String, V> store(String name);

  @Override
  void close();
}
