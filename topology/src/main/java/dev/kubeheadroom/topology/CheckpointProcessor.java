package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes every booking its task holds to the checkpoints topic each time the task's stream time
 * (the highest record time it has read) crosses a multiple of the interval (10 minutes:
 * {@link HeadroomTopology#CHECKPOINT_INTERVAL}): driven by event
 * time, never the wall clock, so the same log gives the same checkpoints byte for byte.
 *
 * <p>It sees each input record before the decoder does (it is the sources' first child), so a
 * checkpoint at boundary B holds exactly what the records read before the first one at or past B
 * folded in. Kafka Streams' own stream-time punctuation fires after that record is processed,
 * which would blur the cut; and the bookings live in the stores it reads, not in the booking
 * processor, so this code touches nothing on the decision path.
 *
 * <p>The last boundary is in memory: after a restart the first record sets it without writing
 * (the boundary's checkpoint was written before the restart, or is re-derived by a replay).
 */
final class CheckpointProcessor implements Processor<String, byte[], String, NodeCheckpoint> {
  private final long intervalMs;
  private final TopologyListener listener;
  private ProcessorContext<String, NodeCheckpoint> context;
  private KeyValueStore<String, NodeSnapshot> nodes;
  private KeyValueStore<String, PodEntry> pods;
  private long boundary = Long.MIN_VALUE;

  CheckpointProcessor(Duration interval, TopologyListener listener) {
    this.intervalMs = interval.toMillis();
    this.listener = listener;
  }

  @Override
  public void init(ProcessorContext<String, NodeCheckpoint> context) {
    this.context = context;
    this.nodes = context.getStateStore(HeadroomTopology.NODES_STORE);
    this.pods = context.getStateStore(HeadroomTopology.PODS_STORE);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    long reached = Math.floorDiv(record.timestamp(), intervalMs) * intervalMs;
    if (boundary == Long.MIN_VALUE) {
      boundary = reached;
    } else if (reached > boundary) {
      boundary = reached;
      write(Instant.ofEpochMilli(reached));
    }
  }

  private void write(Instant at) {
    for (String node : bookedNodes()) {
      NodeBooking booking = BookingReader.read(nodes, pods, node);
      if (booking.snapshot() == null && booking.pods().isEmpty()) {
        continue;
      }
      NodeCheckpoint checkpoint = Checkpoints.of(booking, at);
      context.forward(new Record<>(checkpoint.key(), checkpoint, at.toEpochMilli()));
      listener.checkpointed(checkpoint);
    }
  }

  /** Nodes with a snapshot or at least one pod (pods can come before their node), sorted. */
  private List<String> bookedNodes() {
    List<String> names = new ArrayList<>();
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
    return names.stream().distinct().sorted().toList();
  }
}
