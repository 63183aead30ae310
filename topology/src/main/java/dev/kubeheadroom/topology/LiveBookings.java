package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
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
 * A pod's node comes from the pod index ({@link PodNodeIndex}: one key lookup per partition this
 * instance holds, active or standby); the node's owners from {@code queryMetadataForKey}, named by
 * each instance's {@code application.server} ({@code --application-server}).
 */
public final class LiveBookings {
  /**
   * Where this instance holds a pod's entry.
   *
   * @param active whether this instance runs the partition's task (else it holds a standby copy)
   * @param booking the node's booking as that partition holds it
   */
  public record Located(String node, String uid, int partition, boolean active, NodeBooking booking) {}

  /**
   * The instances that hold a node, as {@code host:port}: the active one (empty when its
   * instance advertises no {@code application.server}, or the partition is being moved) and its
   * standbys.
   */
  public record Owners(Optional<String> active, List<String> standbys) {}

  private final KafkaStreams streams;
  private final String self;

  /** @param self this instance's {@code application.server}, or empty when it advertises none */
  public LiveBookings(KafkaStreams streams, String self) {
    this.streams = streams;
    this.self = Objects.requireNonNull(self, "self").isBlank() ? "" : advertised(HostInfo.buildFromEndpoint(self)).orElse("");
  }

  public LiveBookings(KafkaStreams streams) {
    this(streams, "");
  }

  /** This instance's {@code host:port} (as {@link #owners} names it), or empty. */
  public String self() {
    return self;
  }

  /**
   * The node and uid of pod {@code namespace/name} among the partitions this instance holds,
   * active ones first: the index names the node, and the node's booking must still hold a pod of
   * that name (an index entry the pod's removal has not reached yet is passed over).
   */
  public Optional<Located> locate(String namespace, String name) {
    StateQueryResult<String> result = streams.query(StateQueryRequest.inStore(HeadroomTopology.POD_NODES_STORE)
        .withQuery(KeyQuery.<String, String>withKey(PodNodeIndex.key(namespace, name))));
    Set<Integer> active = activePartitions();
    Optional<Located> standby = Optional.empty();
    for (Map.Entry<Integer, QueryResult<String>> partition : result.getPartitionResults().entrySet()) {
      QueryResult<String> r = partition.getValue();
      if (!r.isSuccess() || r.getResult() == null) {
        continue;
      }
      String node = r.getResult();
      int p = partition.getKey();
      Optional<NodeBooking> booking = booking(node, p);
      Optional<String> uid = booking.flatMap(b -> uidOf(b, namespace, name));
      if (uid.isPresent() && active.contains(p)) {
        return Optional.of(new Located(node, uid.get(), p, true, booking.get()));
      }
      if (uid.isPresent() && standby.isEmpty()) {
        standby = Optional.of(new Located(node, uid.get(), p, false, booking.get()));
      }
    }
    return standby;
  }

  private static Optional<String> uidOf(NodeBooking booking, String namespace, String name) {
    return booking.pods().entrySet().stream()
        .filter(e -> e.getValue().pod().namespace().equals(namespace) && e.getValue().pod().name().equals(name))
        .map(Map.Entry::getKey).findFirst();
  }

  /** Who holds {@code node}, from the group's assignment ({@code queryMetadataForKey}). */
  public Owners owners(String node) {
    KeyQueryMetadata meta = streams.queryMetadataForKey(HeadroomTopology.NODES_STORE, node,
        Serdes.String().serializer());
    if (meta == null || meta == KeyQueryMetadata.NOT_AVAILABLE) {
      return new Owners(Optional.empty(), List.of());
    }
    return new Owners(advertised(meta.activeHost()),
        meta.standbyHosts().stream().map(LiveBookings::advertised).flatMap(Optional::stream).sorted().toList());
  }

  /** Every other instance that advertises itself, sorted. */
  public List<String> others() {
    return streams.metadataForAllStreamsClients().stream().map(StreamsMetadata::hostInfo)
        .map(LiveBookings::advertised).flatMap(Optional::stream).filter(h -> !h.equals(self)).sorted().toList();
  }

  /** {@code host:port}, an IPv6 pod IP in brackets (a URL's authority). */
  private static Optional<String> advertised(HostInfo host) {
    if (host == null || host.port() < 0) {
      return Optional.empty();
    }
    return Optional.of((host.host().contains(":") ? "[" + host.host() + "]" : host.host()) + ":" + host.port());
  }

  /**
   * How many changelog records the local copy of {@code partition}'s pod store is behind: 0 for
   * an active task that is running, the standby's lag otherwise (Streams' last-known end offset).
   */
  public long lag(int partition) {
    LagInfo lag = streams.allLocalStorePartitionLags()
        .getOrDefault(HeadroomTopology.PODS_STORE, Map.of()).get(partition);
    return lag == null ? 0 : Math.max(0, lag.offsetLag());
  }

  private Set<Integer> activePartitions() {
    return streams.metadataForLocalThreads().stream()
        .flatMap(t -> t.activeTasks().stream())
        .flatMap(t -> t.topicPartitions().stream())
        .map(tp -> tp.partition())
        .collect(java.util.stream.Collectors.toSet());
  }

  /**
   * The node's booking, read from store partition {@code storePartition} (active or standby).
   * Empty when that partition cannot answer (rebalancing, not running) or holds no such node.
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
