package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The running topology's bookings through Kafka Streams interactive queries (IQv2,
 * {@code KafkaStreams.query}): what {@code explain --live} reads instead of replaying the log.
 * A node's partition is found with {@code queryMetadataForKey}; only this instance's active
 * partitions answer (a node another instance owns is reported as such, with its host when the
 * application's {@code application.server} is set).
 */
public final class LiveBookings {
  /** Where a node lives: on this instance (its partition), or elsewhere. */
  public sealed interface Owner {
    record Local(int partition) implements Owner {}

    /** @param host {@code host:port} of the owning instance, or empty when not advertised */
    record Remote(String host) implements Owner {}

    record Unknown() implements Owner {}
  }

  private final KafkaStreams streams;

  public LiveBookings(KafkaStreams streams) {
    this.streams = streams;
  }

  public Owner owner(String node) {
    KeyQueryMetadata meta = streams.queryMetadataForKey(HeadroomTopology.NODES_STORE, node,
        Serdes.String().serializer());
    if (meta == null || meta == KeyQueryMetadata.NOT_AVAILABLE) {
      return new Owner.Unknown();
    }
    boolean local = streams.metadataForLocalThreads().stream()
        .flatMap(t -> t.activeTasks().stream())
        .flatMap(t -> t.topicPartitions().stream())
        .anyMatch(tp -> tp.partition() == meta.partition());
    if (local) {
      return new Owner.Local(meta.partition());
    }
    return new Owner.Remote(meta.activeHost() == null || meta.activeHost().port() < 0 ? ""
        : meta.activeHost().host() + ":" + meta.activeHost().port());
  }

  /** Where a pod's entry is: its node, its uid, and the store partition that holds it. */
  public record Located(String node, String uid, int partition) {}

  /** The node and uid of pod {@code namespace/name} among this instance's bookings. */
  public Optional<Located> locate(String namespace, String name) {
    StateQueryResult<KeyValueIterator<String, PodEntry>> result = streams.query(
        StateQueryRequest.inStore(HeadroomTopology.PODS_STORE).withQuery(RangeQuery.<String, PodEntry>withNoBounds()));
    Optional<Located> found = Optional.empty();
    for (Map.Entry<Integer, QueryResult<KeyValueIterator<String, PodEntry>>> partition
        : result.getPartitionResults().entrySet()) {
      if (!partition.getValue().isSuccess()) {
        continue;
      }
      try (KeyValueIterator<String, PodEntry> it = partition.getValue().getResult()) {
        while (it.hasNext() && found.isEmpty()) {
          var kv = it.next();
          if (kv.value.pod().namespace().equals(namespace) && kv.value.pod().name().equals(name)) {
            int cut = kv.key.indexOf(BookingReader.SEPARATOR);
            found = Optional.of(new Located(kv.key.substring(0, cut), kv.key.substring(cut + 1), partition.getKey()));
          }
        }
      }
    }
    return found;
  }

  /**
   * The node's booking, read from store partition {@code storePartition} (where {@link #locate}
   * found it; {@code queryMetadataForKey} names it only when {@code application.server} is set).
   * Empty when that partition cannot answer (rebalancing, not running).
   */
  public Optional<NodeBooking> booking(String node, int storePartition) {
    Set<Integer> partition = Set.of(storePartition);
    QueryResult<NodeSnapshot> snapshot = streams.query(StateQueryRequest.inStore(HeadroomTopology.NODES_STORE)
        .withQuery(KeyQuery.<String, NodeSnapshot>withKey(node)).withPartitions(partition))
        .getOnlyPartitionResult();
    // The pod keys are node NUL uid: the range [node NUL, node \u0001) is exactly the node's pods.
    QueryResult<KeyValueIterator<String, PodEntry>> pods = streams.query(
        StateQueryRequest.inStore(HeadroomTopology.PODS_STORE)
            .withQuery(RangeQuery.<String, PodEntry>withRange(node + BookingReader.SEPARATOR, node + '\u0001'))
            .withPartitions(partition)).getOnlyPartitionResult();
    if (snapshot == null || pods == null || !snapshot.isSuccess() || !pods.isSuccess()) {
      return Optional.empty();
    }
    TreeMap<String, PodEntry> entries = new TreeMap<>();
    try (KeyValueIterator<String, PodEntry> it = pods.getResult()) {
      it.forEachRemaining(kv -> entries.put(kv.key.substring(node.length() + 1), kv.value));
    }
    return Optional.of(new NodeBooking(node, snapshot.getResult(), entries));
  }

  /** The config the topology reads (global store: every instance holds all of it). */
  public ClusterConfig config() {
    ClusterConfig c = this.<ClusterConfig>global(HeadroomTopology.CONFIG_STORE).get(HeadroomKeys.CONFIG_NAME);
    return c == null ? ClusterConfig.DEFAULTS : c;
  }

  public NamespaceInfo namespace(String name) {
    return this.<NamespaceInfo>global(HeadroomTopology.NAMESPACES_STORE).get(name);
  }

  /** Global stores are not partitioned; IQv2 does not serve them, so the typed store view does. */
  private <V> ReadOnlyKeyValueStore<String, V> global(String name) {
    return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()));
  }
}
