package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * What a replay drives: the production topology, fed records in log order, with a wall clock the
 * replay moves. Two ways to run it, both derived from {@code HeadroomTopology.nodes} and opened
 * through a {@link Factory}, with the same processors and the same decisions (a test holds
 * them to that): {@link Factory#INLINE}, the default, calls them directly ({@code InlineTopology});
 * the test-scope {@code DriverHarness.FACTORY} (replay's test jar, for tests and benchmarks) runs the built Kafka Streams topology under {@code TopologyTestDriver}
 * with the production Streams config, serialized, cached, changelogged stores and a commit per
 * record ({@code DriverHarness}) — kept as the yardstick.
 */
public interface TopologyHarness extends AutoCloseable {
  /** How a replay runs the topology: the one way a harness is opened. */
  @FunctionalInterface
  interface Factory {
    /** The default, and the only one in production: the declared processors called inline. */
    Factory INLINE = InlineTopology::new;

    TopologyHarness open(TopologySettings settings, TopologyListener listener, Instant start);
  }

  /** A record as it is on one of the input topics. */
  void pipe(String topic, String key, byte[] value, long timestampMs);

  /**
   * A record as it is on one of the input topics, with where it is there: what the checkpoint
   * processor's cut records ({@code NodeCheckpoint.cut}). A harness that cannot say numbers the
   * records itself.
   */
  default void pipe(String topic, int partition, long offset, String key, byte[] value, long timestampMs) {
    pipe(topic, key, value, timestampMs);
  }

  /** An event that never was bytes, on the node-keyed topic it belongs to. */
  void pipe(String topic, NodeEvent event, long timestampMs);

  void advanceWallClockTo(long ms);

  <V> ReadOnlyKeyValueStore<String, V> store(String name);

  /** Writes one entry of a store, as a restore from a checkpoint does before the replay starts. */
  <V> void put(String store, String key, V value);

  @Override
  void close();
}
