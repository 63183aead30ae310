package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's pods by name ({@code namespace NUL name} → node, store {@link
 * HeadroomTopology#POD_NODES_STORE}, changelogged like the bookings): how {@code explain --live}
 * finds a pod's node with one key lookup per partition instead of scanning the pod store. Written
 * only when a pod enters or leaves a node, never on an update of a pod already booked.
 */
final class PodNodeIndex {
  private final KeyValueStore<String, String> store;

  PodNodeIndex(KeyValueStore<String, String> store) {
    this.store = store;
  }

  static String key(String namespace, String name) {
    return namespace + BookingReader.SEPARATOR + name;
  }

  private static String key(PodSnapshot pod) {
    return key(pod.namespace(), pod.name());
  }

  /**
   * The pods among {@code touched} that entered or left {@code after}'s node since {@code before}.
   * A pod left is unindexed only while the index still names this node: a pod of the same name
   * booked on another node of the task since (a StatefulSet's pod re-created) keeps its entry.
   */
  void update(NodeBooking before, NodeBooking after, Set<String> touched) {
    String node = after.node();
    for (String uid : touched) {
      PodEntry prior = before == null ? null : before.pods().get(uid);
      PodEntry now = after.pods().get(uid);
      if (prior == null && now != null) {
        store.put(key(now.pod()), node);
      } else if (prior != null && now == null && node.equals(store.get(key(prior.pod())))) {
        store.put(key(prior.pod()), null);
      }
    }
  }

  /**
   * Indexes every booked pod when the index holds nothing and the pod store does: a task whose
   * state was written before the index existed. A no-op (one empty iterator) otherwise.
   */
  void fillIfEmpty(KeyValueStore<String, PodEntry> pods) {
    try (KeyValueIterator<String, String> any = store.all()) {
      if (any.hasNext()) {
        return;
      }
    }
    try (KeyValueIterator<String, PodEntry> it = pods.all()) {
      while (it.hasNext()) {
        var kv = it.next();
        store.put(key(kv.value.pod()), kv.key.substring(0, kv.key.indexOf(BookingReader.SEPARATOR)));
      }
    }
  }
}
