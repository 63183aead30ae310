package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes every booking its task holds to the checkpoints topic each time the task's stream time
 * (the highest record time it has read) crosses a multiple of the interval (10 minutes:
 * {@link HeadroomTopology#CHECKPOINT_INTERVAL}): driven by event time, never the wall clock.
 *
 * <p>It sees each input record before the decoder does (it is the sources' first child), so a
 * checkpoint at boundary B holds exactly what the records read before the first one at or past B
 * folded in. Which records those are depends on how the co-partitioned topics' fetches
 * interleaved ({@code max.task.idle.ms=-1}: a node's snapshot of minute 22 can be read before its
 * pod of minute 19), so the record time does not say; each checkpoint carries its cut instead:
 * per input partition, the first offset not folded in ({@link NodeCheckpoint#cut}). A re-derivation
 * folds exactly those prefixes, and an audit replays from them. Kafka Streams' own stream-time
 * punctuation fires after that record is processed, which would blur the cut; and the bookings
 * live in the stores it reads, not in the booking processor, so this code touches nothing on the
 * decision path.
 *
 * <p>The last boundary and the offsets are in memory: after a restart the first record sets the
 * boundary without writing (the boundary's checkpoint was written before the restart, or is
 * re-derived by a replay), and a partition not read since is left out of the cut (its cut is the
 * boundary's time, as in a checkpoint written before cuts).
 */
final class CheckpointProcessor implements Processor<String, byte[], String, NodeCheckpoint> {
  private final long intervalMs;
  private final TopologyListener listener;
  private ProcessorContext<String, NodeCheckpoint> context;
  private KeyValueStore<String, NodeSnapshot> nodes;
  private KeyValueStore<String, PodEntry> pods;
  private long boundary = Long.MIN_VALUE;
  /** The partitions read so far (a task reads one per node-keyed topic), in the order first read. */
  private final List<Read> read = new ArrayList<>(3);

  /** A partition this task reads and the first offset it has not folded in. */
  private static final class Read {
    final String topic;
    final int partition;
    long next;

    Read(String topic, int partition, long next) {
      this.topic = topic;
      this.partition = partition;
      this.next = next;
    }
  }

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
    RecordMetadata meta = context.recordMetadata().orElse(null);
    if (meta != null) {
      folded(meta.topic(), meta.partition(), meta.offset());
    }
  }

  /** Notes that the record at {@code offset} is folded in (after the write: it is past the cut). */
  private void folded(String topic, int partition, long offset) {
    for (Read r : read) {
      if (r.partition == partition && r.topic.equals(topic)) {
        r.next = offset + 1;
        return;
      }
    }
    read.add(new Read(topic, partition, offset + 1));
  }

  private void write(Instant at) {
    List<Position> cut = new ArrayList<>(read.size());
    for (Read r : read) {
      cut.add(new Position(r.topic, r.partition, r.next));
    }
    for (NodeCheckpoint checkpoint : Checkpoints.all(nodes, pods, at, cut)) {
      context.forward(new Record<>(checkpoint.key(), checkpoint, at.toEpochMilli()));
      listener.checkpointed(checkpoint);
    }
  }
}
