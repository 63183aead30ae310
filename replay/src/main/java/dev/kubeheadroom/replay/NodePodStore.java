package dev.kubeheadroom.replay;

import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.PodEntry;
import dev.kubeheadroom.topology.booking.WholeNodePods;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * {@link InlineTopology}'s pods store (key: node NUL uid), held per node: each node's entries are
 * the booking's own immutable table, handed over whole by {@link #putNode} at every booking step.
 * A step then costs one hash put of the node, where a {@code TreeMap} of every pod of the cluster
 * cost a key concatenated and a sorted insert per touched pod (its compares walk the node name
 * every key shares: ≈ 8% of {@code simulate}'s main thread). Reads answer exactly as that
 * {@code TreeMap} would (NodePodStoreTest): a node's scan walks its table; any other scan, rare
 * (checkpoints, a replay's final bookings), sorts every key first.
 */
final class NodePodStore extends InlineStore<PodEntry> implements WholeNodePods {
  /** A node's entries once written per key (a restore): this store's own copy, mutable. */
  private static final class OwnRows extends TreeMap<String, PodEntry> {
    OwnRows(SortedMap<String, PodEntry> from) {
      super(from);
    }
  }

  /** By node (the key up to its first NUL): its entries by the rest of the key; never empty. */
  private final Map<String, SortedMap<String, PodEntry>> byNode = new HashMap<>();

  NodePodStore(String name) {
    super(name);
  }

  @Override
  public void putNode(String node, SortedMap<String, PodEntry> pods) {
    if (node.indexOf(BookingReader.SEPARATOR) >= 0) {
      replaceByKey(node, pods); // not a Kubernetes name; keys split at their first NUL
    } else if (pods.isEmpty()) {
      byNode.remove(node);
    } else {
      byNode.put(node, pods);
    }
  }

  private void replaceByKey(String node, SortedMap<String, PodEntry> pods) {
    List<String> stale = new ArrayList<>();
    try (KeyValueIterator<String, PodEntry> it = prefixScan(node + BookingReader.SEPARATOR, null)) {
      it.forEachRemaining(kv -> stale.add(kv.key));
    }
    stale.forEach(key -> put(key, null));
    pods.forEach((uid, entry) -> put(BookingReader.podKey(node, uid), entry));
  }

  @Override
  public void put(String key, PodEntry value) {
    int at = separator(key);
    String node = key.substring(0, at);
    String uid = key.substring(at + 1);
    SortedMap<String, PodEntry> current = byNode.get(node);
    if (value == null) {
      if (current == null || !current.containsKey(uid)) {
        return;
      }
      OwnRows rows = own(node, current);
      rows.remove(uid);
      if (rows.isEmpty()) {
        byNode.remove(node);
      }
    } else {
      own(node, current).put(uid, value);
    }
  }

  private OwnRows own(String node, SortedMap<String, PodEntry> current) {
    if (current instanceof OwnRows rows) {
      return rows;
    }
    OwnRows rows = new OwnRows(current == null ? new TreeMap<>() : current);
    byNode.put(node, rows);
    return rows;
  }

  private static int separator(String key) {
    int at = key.indexOf(BookingReader.SEPARATOR);
    if (at < 0) {
      throw new IllegalArgumentException("not a pod key (node NUL uid): " + key);
    }
    return at;
  }

  @Override
  public PodEntry get(String key) {
    int at = key.indexOf(BookingReader.SEPARATOR);
    if (at < 0) {
      return null;
    }
    SortedMap<String, PodEntry> pods = byNode.get(key.substring(0, at));
    return pods == null ? null : pods.get(key.substring(at + 1));
  }

  @Override
  public KeyValueIterator<String, PodEntry> range(String from, String to) {
    return ObjectStore.range(sorted(), from, to);
  }

  @Override
  public KeyValueIterator<String, PodEntry> all() {
    return ObjectStore.iterator(sorted().entrySet().iterator(), null);
  }

  /** A node's scan ({@code node NUL}, what a booking is read by) walks its entries alone. */
  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<String, PodEntry> prefixScan(P prefix, PS serializer) {
    String p = prefix.toString();
    int at = p.indexOf(BookingReader.SEPARATOR);
    if (at < 0 || at != p.length() - 1) {
      return ObjectStore.prefixScan(sorted(), p);
    }
    SortedMap<String, PodEntry> pods = byNode.getOrDefault(p.substring(0, at), new TreeMap<>());
    Iterator<Map.Entry<String, PodEntry>> uids = pods.entrySet().iterator();
    Iterator<Map.Entry<String, PodEntry>> keyed = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return uids.hasNext();
      }

      @Override
      public Map.Entry<String, PodEntry> next() {
        Map.Entry<String, PodEntry> e = uids.next();
        return Map.entry(p + e.getKey(), e.getValue());
      }
    };
    return ObjectStore.iterator(keyed, null);
  }

  /** Every entry under its full key, sorted as the keys are. */
  private TreeMap<String, PodEntry> sorted() {
    TreeMap<String, PodEntry> all = new TreeMap<>();
    byNode.forEach((node, pods) -> pods.forEach((uid, entry) -> all.put(BookingReader.podKey(node, uid), entry)));
    return all;
  }

  @Override
  public long approximateNumEntries() {
    long n = 0;
    for (SortedMap<String, PodEntry> pods : byNode.values()) {
      n += pods.size();
    }
    return n;
  }

  @Override
  public void close() {
    byNode.clear();
  }

}
