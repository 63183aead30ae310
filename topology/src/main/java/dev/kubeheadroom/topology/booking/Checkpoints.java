package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** A booking to its checkpoint and back (the pending targets are not kept: NodeCheckpoint). */
public final class Checkpoints {
  private Checkpoints() {}

  /**
   * The checkpoint of every booked node in the stores (a snapshot or at least one pod: pods can
   * come before their node), sorted by node, each with {@code cut}: what the topology writes at a
   * boundary and what {@code audit --verify} re-derives, through this one method.
   */
  public static List<NodeCheckpoint> all(ReadOnlyKeyValueStore<String, NodeSnapshot> nodes,
      ReadOnlyKeyValueStore<String, PodEntry> pods, Instant at, List<Position> cut) {
    List<NodeCheckpoint> out = new ArrayList<>();
    for (String node : bookedNodes(nodes, pods)) {
      NodeBooking booking = BookingReader.read(nodes, pods, node);
      if (booking.snapshot() != null || !booking.pods().isEmpty()) {
        out.add(of(booking, at, cut));
      }
    }
    return out;
  }

  private static TreeSet<String> bookedNodes(ReadOnlyKeyValueStore<String, NodeSnapshot> nodes,
      ReadOnlyKeyValueStore<String, PodEntry> pods) {
    TreeSet<String> names = new TreeSet<>();
    try (KeyValueIterator<String, NodeSnapshot> it = nodes.all()) {
      it.forEachRemaining(kv -> names.add(kv.key));
    }
    String last = null;
    try (KeyValueIterator<String, PodEntry> it = pods.all()) {
      while (it.hasNext()) {
        String key = it.next().key;
        String node = key.substring(0, key.indexOf(BookingReader.SEPARATOR));
        if (!node.equals(last)) {
          names.add(node);
          last = node;
        }
      }
    }
    return names;
  }

  public static NodeCheckpoint of(NodeBooking booking, Instant at) {
    return of(booking, at, List.of());
  }

  /** The booking's checkpoint with the cut it was taken at. */
  public static NodeCheckpoint of(NodeBooking booking, Instant at, List<Position> cut) {
    List<CheckpointPod> pods = new ArrayList<>(booking.pods().size());
    for (Map.Entry<String, PodEntry> e : booking.pods().entrySet()) {
      PodEntry entry = e.getValue();
      pods.add(new CheckpointPod(entry.pod(), entry.backoffSince(), entry.infeasibleSeen(), entry.refusals()));
    }
    return new NodeCheckpoint(booking.node(), at, booking.snapshot(), pods, cut);
  }

  /** The booking a checkpoint restores: every pod without a pending target. */
  public static NodeBooking booking(NodeCheckpoint checkpoint) {
    TreeMap<String, PodEntry> pods = new TreeMap<>();
    for (CheckpointPod p : checkpoint.pods()) {
      pods.put(p.pod().uid(), new PodEntry(p.pod(), null, p.backoffSince(), p.infeasibleSeen(), p.refusals()));
    }
    return NodeBooking.owning(checkpoint.node(), checkpoint.snapshot(), pods);
  }
}
