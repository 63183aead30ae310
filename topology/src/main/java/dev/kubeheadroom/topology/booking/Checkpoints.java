package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A booking to its checkpoint and back (the pending targets are not kept: NodeCheckpoint). */
public final class Checkpoints {
  private Checkpoints() {}

  public static NodeCheckpoint of(NodeBooking booking, Instant at) {
    List<CheckpointPod> pods = new ArrayList<>(booking.pods().size());
    for (Map.Entry<String, PodEntry> e : booking.pods().entrySet()) {
      PodEntry entry = e.getValue();
      pods.add(new CheckpointPod(entry.pod(), entry.backoffSince(), entry.infeasibleSeen(), entry.refusals()));
    }
    return new NodeCheckpoint(booking.node(), at, booking.snapshot(), pods);
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
