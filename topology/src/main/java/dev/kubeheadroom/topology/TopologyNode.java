package dev.kubeheadroom.topology;

import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * One node of the Headroom topology as {@link HeadroomTopology#nodes} declares it. The list is the
 * one wiring: {@link HeadroomTopology#build} hands it to Kafka Streams, and replay's inline runner
 * calls the same processors along the same edges, so neither can wire something the other does
 * not.
 */
public sealed interface TopologyNode {
  String name();

  /**
   * Reads {@code topic} with string keys and raw values: decoding is a processor's job, so that
   * an unreadable record can be dead-lettered rather than stop the task.
   */
  record Source(String name, String topic) implements TopologyNode {}

  /**
   * A processor fed by {@code parents}, owning {@code stores} (added right after it) and reading
   * {@code shared}, stores another processor owns (by name; connected once every node is added).
   */
  record Processing(String name, ProcessorSupplier<?, ?, ?, ?> supplier, List<String> parents,
      List<StoreBuilder<?>> stores, List<String> shared) implements TopologyNode {
    public Processing {
      parents = List.copyOf(parents);
      stores = List.copyOf(stores);
      shared = List.copyOf(shared);
    }

    public Processing(String name, ProcessorSupplier<?, ?, ?, ?> supplier, List<String> parents,
        List<StoreBuilder<?>> stores) {
      this(name, supplier, parents, stores, List.of());
    }
  }

  /**
   * Writes what {@code parents} forward to it onto {@code topic}, in the partition {@code
   * partitioner} picks (null: the producer's default, by key).
   */
  record Sink(String name, String topic, Serializer<?> keys, Serializer<?> values, List<String> parents,
      StreamPartitioner<?, ?> partitioner) implements TopologyNode {
    public Sink {
      parents = List.copyOf(parents);
    }

    public Sink(String name, String topic, Serializer<?> keys, Serializer<?> values, List<String> parents) {
      this(name, topic, keys, values, parents, null);
    }
  }

  /**
   * A global table: {@code topic}, read by its own source {@code source} (string keys, raw
   * values), kept in {@code store} by the processor {@code name}.
   */
  record GlobalTable(String name, String source, String topic, StoreBuilder<?> store,
      ProcessorSupplier<String, byte[], Void, Void> supplier) implements TopologyNode {}
}
