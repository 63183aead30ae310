package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import dev.kubeheadroom.topology.booking.Step;
import dev.kubeheadroom.topology.booking.WholeNodePods;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's bookings over two changelogged stores: the node (key: node) and one entry per pod
 * (key: node NUL uid), so an event rewrites one small value. Bookings are cached in memory for
 * the task's life; the stores stay the source of truth (restored from changelogs on restart). A
 * third store indexes the pods by name ({@link PodNodeIndex}).
 */
final class BookingStore {
  private final KeyValueStore<String, NodeSnapshot> nodes;
  private final KeyValueStore<String, PodEntry> pods;
  /** The pods store when it takes a node's pods whole (a replay's), else null: written per pod. */
  private final WholeNodePods whole;
  /** Pods by name, for the bookings endpoint; null for a replay's stores (nothing queries them). */
  private final PodNodeIndex index;
  private final Map<String, NodeBooking> cache = new HashMap<>();

  BookingStore(KeyValueStore<String, NodeSnapshot> nodes, KeyValueStore<String, PodEntry> pods,
      KeyValueStore<String, String> podNodes) {
    this.nodes = nodes;
    this.pods = pods;
    this.whole = pods instanceof WholeNodePods w ? w : null;
    this.index = whole == null ? new PodNodeIndex(podNodes) : null;
  }

  /** Indexes the pods booked before the index existed (once per task start; see {@link PodNodeIndex}). */
  void indexIfEmpty() {
    if (index != null) {
      index.fillIfEmpty(pods);
    }
  }

  NodeBooking load(String node) {
    NodeBooking booking = cache.get(node); // not computeIfAbsent: its method reference was an object per event
    if (booking == null) {
      booking = BookingReader.read(nodes, pods, node);
      cache.put(node, booking);
    }
    return booking;
  }

  /**
   * Writes back what the step touched. Removals are {@code put(key, null)}: the same tombstone in
   * the store and its changelog as {@code delete}, without fetching and decoding the old value
   * that {@code delete} returns (a sixth of the stream thread's time when pods churn). A store
   * that takes a node's pods whole gets the booking's table instead: the same entries, since the
   * step touches every pod whose entry it changed and the rest are as loaded (StepTouchTest).
   */
  void save(Step step) {
    NodeBooking booking = step.booking();
    String node = booking.node();
    if (whole != null) {
      if (!step.touchedPods().isEmpty()) {
        whole.putNode(node, booking.pods());
      }
    } else {
      index.update(cache.get(node), booking, step.touchedPods());
      for (String uid : step.touchedPods()) {
        PodEntry entry = booking.pods().get(uid);
        if (entry == null) {
          pods.put(BookingReader.podKey(node, uid), null);
        } else {
          pods.put(BookingReader.podKey(node, uid), entry);
        }
      }
    }
    if (step.nodeTouched()) {
      if (booking.snapshot() == null) {
        nodes.put(node, null);
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
