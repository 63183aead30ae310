package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeSnapshot;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads a node's booking from the topology's stores: the node entry (key: node) and one entry per
 * pod (key: node NUL uid). Used by the processor, by replay and by interactive queries.
 */
public final class BookingReader {
  public static final char SEPARATOR = '\0';

  private BookingReader() {}

  public static String podKey(String node, String uid) {
    return node + SEPARATOR + uid;
  }

  public static NodeBooking read(
      ReadOnlyKeyValueStore<String, NodeSnapshot> nodes,
      ReadOnlyKeyValueStore<String, PodEntry> pods,
      String node) {
    TreeMap<String, PodEntry> entries = new TreeMap<>();
    try (KeyValueIterator<String, PodEntry> it =
        pods.prefixScan(node + SEPARATOR, new StringSerializer())) {
      while (it.hasNext()) {
        KeyValue<String, PodEntry> kv = it.next();
        entries.put(kv.key.substring(node.length() + 1), kv.value);
      }
    }
    return NodeBooking.owning(node, nodes.get(node), entries);
  }
}
