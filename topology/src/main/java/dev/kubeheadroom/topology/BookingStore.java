package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import dev.kubeheadroom.topology.booking.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's bookings over two changelogged stores: the node (key: node) and one entry per pod
 * (key: node NUL uid), so an event rewrites one small value. Bookings are cached in memory for
 * the task's life; the stores stay the source of truth (restored from changelogs on restart).
 */
final class BookingStore {
  static final char SEPARATOR = '\0';

  private final KeyValueStore<String, NodeSnapshot> nodes;
  private final KeyValueStore<String, PodEntry> pods;
  private final Map<String, NodeBooking> cache = new HashMap<>();

  BookingStore(KeyValueStore<String, NodeSnapshot> nodes, KeyValueStore<String, PodEntry> pods) {
    this.nodes = nodes;
    this.pods = pods;
  }

  static String podKey(String node, String uid) {
    return node + SEPARATOR + uid;
  }

  NodeBooking load(String node) {
    return cache.computeIfAbsent(node, this::read);
  }

  private NodeBooking read(String node) {
    TreeMap<String, PodEntry> entries = new TreeMap<>();
    try (KeyValueIterator<String, PodEntry> it =
        pods.prefixScan(node + SEPARATOR, new StringSerializer())) {
      while (it.hasNext()) {
        KeyValue<String, PodEntry> kv = it.next();
        entries.put(kv.key.substring(node.length() + 1), kv.value);
      }
    }
    return new NodeBooking(node, nodes.get(node), entries);
  }

  /** Writes back what the step touched. */
  void save(Step step) {
    NodeBooking booking = step.booking();
    String node = booking.node();
    for (String uid : step.touchedPods()) {
      PodEntry entry = booking.pods().get(uid);
      if (entry == null) {
        pods.delete(podKey(node, uid));
      } else {
        pods.put(podKey(node, uid), entry);
      }
    }
    if (step.nodeTouched()) {
      if (booking.snapshot() == null) {
        nodes.delete(node);
      } else {
        nodes.put(node, booking.snapshot());
      }
    }
    if (booking.snapshot() == null && booking.pods().isEmpty()) {
      cache.remove(node);
    } else {
      cache.put(node, booking);
    }
  }

  /** Every node this task knows (has a node snapshot for). */
  List<String> nodes() {
    List<String> names = new ArrayList<>();
    try (KeyValueIterator<String, NodeSnapshot> it = nodes.all()) {
      while (it.hasNext()) {
        names.add(it.next().key);
      }
    }
    return names;
  }
}
