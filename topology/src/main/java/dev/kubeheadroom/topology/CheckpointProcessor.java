package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
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
 * <p>The last boundary written and each partition's offset are kept in its own changelogged store
 * ({@link HeadroomTopology#CHECKPOINT_CUT_STORE}), committed with the checkpoints and the bookings
 * they describe, and read back by {@code init}. A checkpoint written in a transaction that aborts
 * (a task Kafka Streams revives: the same instance, {@code init} called again on the restored
 * stores; or a process killed mid-transaction) is gone, and so is its boundary in the store: the
 * record that crossed it, read again, writes it again, at the cut the restored bookings hold.
 * Remembered in memory only, the boundary stayed past it and that checkpoint was never written.
 * Only a task with nothing stored (its first record ever) sets the boundary without writing.
 *
 * <p>Each checkpoint also carries the order the task read its node's records in since the
 * previous boundary ({@link NodeCheckpoint#order}: runs of one topic), so {@code audit --verify}
 * folds them as the task did where a node's events on two topics do not commute. It is kept in
 * memory (a few runs per node touched in the interval) and mirrored in the same store, a cached
 * put per record under the node's key ({@link ReadRuns#encoded}: a few bytes), deleted at the
 * next boundary: a task restarted or revived within an interval goes on from the order it had
 * committed, as from its cut. Only a store written by a build that did not keep the order (no
 * {@code ordered} mark at its boundary) leaves that boundary's checkpoints without one (the
 * verifier then folds by record time, as for a checkpoint written before format 5).
 *
 * <p>The store's values are bytes: the boundary and the offsets 8 bytes big-endian, as the
 * {@code Long} serde wrote them before the order was stored (a store from then reads back as it is).
 */
final class CheckpointProcessor implements Processor<String, byte[], String, NodeCheckpoint> {
  /** The last boundary's key in the cut store; a partition's key has a ':', no topic name does. */
  private static final String BOUNDARY = "boundary";
  /** The boundary since which every record's read order is stored (absent: not kept then). */
  private static final String ORDERED = "ordered";
  /** A node's stored runs are under {@code /node}: neither a topic nor a node name has a '/'. */
  private static final char ORDER = '/';
  private final long intervalMs;
  private final TopologyListener listener;
  /** The task's source topics, in the order a stored run's topic index counts them. */
  private final List<String> sources;
  private ProcessorContext<String, NodeCheckpoint> context;
  private KeyValueStore<String, NodeSnapshot> nodes;
  private KeyValueStore<String, PodEntry> pods;
  /** What {@link #boundary} and {@link #read} mirror, as last committed: restored on a revive. */
  private KeyValueStore<String, byte[]> stored;
  private long boundary;
  /** The partitions read so far (a task reads one per node-keyed topic), in the order first read. */
  private final List<Read> read = new ArrayList<>(3);
  /** Per node, the runs of one topic read since the last boundary written. */
  private final ReadRuns orders = new ReadRuns();
  /** Whether {@link #orders} holds every record read since the last boundary (false after an upgrade within one). */
  private boolean orderKnown;

  /** A partition this task reads and the first offset it has not folded in. */
  private static final class Read {
    final String topic;
    final int partition;
    final String key;
    long next;

    Read(String topic, int partition, long next) {
      this.topic = topic;
      this.partition = partition;
      this.key = topic + ':' + partition;
      this.next = next;
    }
  }

  CheckpointProcessor(Duration interval, TopologyListener listener, List<String> sources) {
    this.intervalMs = interval.toMillis();
    this.listener = listener;
    this.sources = List.copyOf(sources);
  }

  @Override
  public void init(ProcessorContext<String, NodeCheckpoint> context) {
    this.context = context;
    this.nodes = context.getStateStore(HeadroomTopology.NODES_STORE);
    this.pods = context.getStateStore(HeadroomTopology.PODS_STORE);
    this.stored = context.getStateStore(HeadroomTopology.CHECKPOINT_CUT_STORE);
    // Called again on this instance when Streams revives the task: start from the store as
    // restored, never from what the aborted transaction left in memory.
    read.clear();
    orders.clear();
    Long last = number(stored.get(BOUNDARY));
    boundary = last == null ? Long.MIN_VALUE : last;
    // nothing read before, or every record since the boundary noted in the store
    orderKnown = last == null || last.equals(number(stored.get(ORDERED)));
    try (KeyValueIterator<String, byte[]> it = stored.all()) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> kv = it.next();
        int colon = kv.key.lastIndexOf(':');
        if (kv.key.charAt(0) == ORDER) {
          orders.restore(kv.key.substring(1), kv.value, sources);
        } else if (colon > 0) {
          read.add(new Read(kv.key.substring(0, colon), Integer.parseInt(kv.key.substring(colon + 1)), number(kv.value)));
        }
      }
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    long reached = Math.floorDiv(record.timestamp(), intervalMs) * intervalMs;
    try {
      if (reached > boundary) {
        if (boundary != Long.MIN_VALUE) {
          write(Instant.ofEpochMilli(reached));
        }
        boundary = reached; // after the write: a checkpoint not sent is not remembered as written
        stored.put(BOUNDARY, bytes(reached));
        stored.put(ORDERED, bytes(reached));
        for (String node : orders.nodes()) {
          stored.delete(ORDER + node);
        }
        orders.clear();
        orderKnown = true;
      }
    } finally {
      // A write that failed is dead-lettered and the record still booked (the decoder is the
      // next child): it is folded in either way, and the next record tries the boundary again.
      RecordMetadata meta = context.recordMetadata().orElse(null);
      if (meta != null) {
        folded(meta.topic(), meta.partition(), meta.offset());
        if (record.key() != null) {
          orders.note(record.key(), meta.topic());
          stored.put(ORDER + record.key(), orders.encoded(record.key(), sources));
        }
      }
    }
  }

  /**
   * Notes that the record at {@code offset} is folded in (after the write: it is past the cut).
   * One put per record into the cut store, a cached one: its changelog gets one entry per
   * partition per commit.
   */
  private void folded(String topic, int partition, long offset) {
    Read at = null;
    for (Read r : read) {
      if (r.partition == partition && r.topic.equals(topic)) {
        at = r;
        break;
      }
    }
    if (at == null) {
      at = new Read(topic, partition, offset + 1);
      read.add(at);
    }
    at.next = offset + 1;
    stored.put(at.key, bytes(at.next));
  }

  private static byte[] bytes(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  private static Long number(byte[] value) {
    return value == null ? null : ByteBuffer.wrap(value).getLong();
  }

  private void write(Instant at) {
    List<Position> cut = new ArrayList<>(read.size());
    for (Read r : read) {
      cut.add(new Position(r.topic, r.partition, r.next));
    }
    for (NodeCheckpoint booked : Checkpoints.all(nodes, pods, at, cut)) {
      NodeCheckpoint checkpoint = booked.withOrder(orderKnown ? orders.of(booked.node()) : null);
      context.forward(new Record<>(checkpoint.key(), checkpoint, at.toEpochMilli()));
      listener.checkpointed(checkpoint);
    }
  }
}
