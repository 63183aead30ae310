package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.topology.CheckpointPartitioner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Finds the checkpoints an audit starts from: the latest boundary at or before a moment, through
 * Kafka's time index (a checkpoint's record time is its boundary), so the cost does not grow with
 * the topic's length: per partition, a short read back from the moment, then one boundary's
 * records.
 *
 * <p>Every partition is read at once (one consumer assigned all of them, each fetch carrying
 * every partition still wanted) and each stops at a bound known before the read: the end offset
 * taken up front or the boundary's last record. It never polls a partition for records past its
 * end, where a fetch waits on the broker for data that is not coming. The cut's values are then
 * decoded in parallel.
 */
public final class CheckpointReader {
  /** How far back from the moment's offset a partition is read to find its last boundary. */
  static final int LOOK_BACK = 32;
  private static final Duration POLL = Duration.ofMillis(200);

  /** The stopping condition of one partition's read: [from, until), then no later than a time. */
  private record Range(long from, long until, long stopAfterMs) {}

  private final Consumer<String, byte[]> consumer;
  private final Duration timeout;

  /**
   * Consumer settings the reader is fastest with: a cut is one boundary's records in every
   * partition (megabytes each), so a fetch takes a partition's share in one go; and one node's
   * partition read to the log's end waits no longer than a look-back's does
   * ({@link NodeLookback#FETCH_WAIT_MS}).
   */
  public static Map<String, Object> consumerSettings() {
    return Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024,
        ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024,
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, NodeLookback.FETCH_WAIT_MS);
  }

  /** @param consumer a consumer with no group (assignment only); the caller closes it */
  public CheckpointReader(Consumer<String, byte[]> consumer, Duration timeout) {
    this.consumer = consumer;
    this.timeout = timeout;
  }

  /** The cut at the latest boundary at or before {@code at}, if the topic holds one. */
  public Optional<CheckpointCut> latest(String topic, Instant at) {
    return boundary(partitions(topic), at).map(CheckpointReader::wholeCut);
  }

  /**
   * The cut at the latest boundary at or before {@code at} as stored, decoded only on demand: what
   * an audit of one pod starts from ({@link PodPlaces}), which decodes only the checkpoints of the
   * nodes the pod was on.
   */
  public Optional<StoredCut> latestStored(String topic, Instant at) {
    return boundary(partitions(topic), at).map(b -> StoredCut.of(b.at(), b.records()));
  }

  /**
   * {@code node}'s checkpoint at the latest boundary at or before {@code at} in the node's
   * partition ({@link CheckpointPartitioner}), if it holds one: what an audit of one node starts
   * from. Only that partition is read and only the node's checkpoint decoded (the key names node
   * and boundary); the cut's positions are the partition's task's. A node the task did not book at
   * the boundary gets a cut without checkpoints, its positions those of another checkpoint of the
   * boundary.
   */
  public Optional<CheckpointCut> latestOf(String topic, Instant at, String node) {
    List<TopicPartition> partitions = partitions(topic);
    if (partitions.isEmpty()) {
      return Optional.empty();
    }
    TopicPartition own = new TopicPartition(topic, CheckpointPartitioner.partition(node, partitions.size()));
    return boundary(List.of(own), at).map(b -> nodeCut(b.records(), b.at(), node));
  }

  /** A boundary and its checkpoint records (values not null, record time the boundary). */
  private record Boundary(Instant at, List<ConsumerRecord<String, byte[]>> records) {}

  /** The latest boundary at or before {@code at} in {@code partitions}, with its records. */
  private Optional<Boundary> boundary(List<TopicPartition> partitions, Instant at) {
    if (partitions.isEmpty()) {
      return Optional.empty(); // no checkpoints topic: a pipeline from before checkpoints
    }
    consumer.assign(partitions);
    Map<TopicPartition, Long> begins = consumer.beginningOffsets(partitions, timeout);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
    Map<TopicPartition, Long> after = offsetsAfter(partitions, at.toEpochMilli() + 1, ends);
    Map<TopicPartition, Range> back = new HashMap<>();
    for (TopicPartition tp : partitions) {
      long until = after.get(tp);
      // Back from the first offset later than the moment, and on past it to the first record
      // delivered later than the moment: a task revived inside a transaction writes a boundary's
      // checkpoints again after the aborted copies, whose times the time index already holds, so
      // the committed copy can follow that offset (and the window before it hold only aborted ones).
      back.put(tp, new Range(Math.max(begins.get(tp), until - LOOK_BACK), ends.get(tp), at.toEpochMilli()));
    }
    long boundary = Long.MIN_VALUE;
    for (ConsumerRecord<String, byte[]> r : read(back)) {
      if (r.timestamp() <= at.toEpochMilli()) {
        boundary = Math.max(boundary, r.timestamp());
      }
    }
    if (boundary == Long.MIN_VALUE) {
      return Optional.empty();
    }
    long ms = boundary;
    Map<TopicPartition, Long> starts = offsetsAfter(partitions, ms, ends);
    Map<TopicPartition, Range> ranges = new HashMap<>();
    partitions.forEach(tp -> ranges.put(tp, new Range(starts.get(tp), ends.get(tp), ms)));
    return Optional.of(new Boundary(Instant.ofEpochMilli(ms), read(ranges).stream()
        .filter(r -> r.timestamp() == ms && r.value() != null).toList()));
  }

  /** Every node's checkpoint of the boundary. */
  private static CheckpointCut wholeCut(Boundary b) {
    // decoding is the work of a cut (thousands of checkpoints of dozens of pods): on every core
    List<NodeCheckpoint> decoded = b.records().parallelStream().map(r -> decode(r.value()))
        .filter(c -> c != null && c.at().equals(b.at())).toList();
    Map<String, NodeCheckpoint> byKey = new TreeMap<>(); // a compacted twin: the last one wins
    decoded.forEach(c -> byKey.put(c.key(), c));
    return new CheckpointCut(b.at(), new ArrayList<>(byKey.values()));
  }

  /** The node's checkpoint among one partition's boundary records, positions from one of them. */
  private static CheckpointCut nodeCut(List<ConsumerRecord<String, byte[]>> records, Instant boundary, String node) {
    String key = NodeCheckpoint.key(node, boundary);
    NodeCheckpoint own = null;
    for (ConsumerRecord<String, byte[]> r : records) {
      if (key.equals(r.key())) {
        NodeCheckpoint c = decode(r.value());
        own = c != null && c.at().equals(boundary) ? c : own; // a compacted twin: the last one wins
      }
    }
    if (own != null) {
      return new CheckpointCut(boundary, List.of(own));
    }
    for (ConsumerRecord<String, byte[]> r : records) {
      NodeCheckpoint other = decode(r.value());
      if (other != null && other.at().equals(boundary)) {
        return new CheckpointCut(boundary, List.of(), CheckpointCut.positionsOf(List.of(other)));
      }
    }
    return new CheckpointCut(boundary, List.of());
  }

  static NodeCheckpoint decode(byte[] value) {
    try {
      return CheckpointCodec.decode(value);
    } catch (SchemaException e) {
      return null; // unreadable: that node is replayed as unknown at the cut (verify reports the record)
    }
  }

  private List<TopicPartition> partitions(String topic) {
    try {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      List<TopicPartition> out = new ArrayList<>();
      if (infos != null) {
        infos.forEach(p -> out.add(new TopicPartition(p.topic(), p.partition())));
      }
      return out;
    } catch (AuthorizationException e) {
      throw e; // a missing grant is the operator's to fix, not a reason to replay the whole log
    } catch (KafkaException e) {
      return List.of();
    }
  }

  /** Per partition, the first offset whose record time is at or after {@code ms} (else its end). */
  private Map<TopicPartition, Long> offsetsAfter(List<TopicPartition> partitions, long ms,
      Map<TopicPartition, Long> ends) {
    Map<TopicPartition, Long> query = new HashMap<>();
    partitions.forEach(tp -> query.put(tp, ms));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
    Map<TopicPartition, Long> out = new HashMap<>();
    for (TopicPartition tp : partitions) {
      OffsetAndTimestamp o = found.get(tp);
      out.put(tp, o == null ? ends.get(tp) : o.offset());
    }
    return out;
  }

  /**
   * Each partition's records in its range, every partition fetched at once: a partition is done
   * at its range's end or after its first record later than the range's time (a checkpoint
   * partition is its nodes' partition, {@code CheckpointPartitioner}, written by one task in
   * boundary order), and is then paused; the read returns once all are done, without another
   * poll.
   */
  private List<ConsumerRecord<String, byte[]>> read(Map<TopicPartition, Range> ranges) {
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    Set<TopicPartition> open = new HashSet<>();
    consumer.assign(ranges.keySet());
    consumer.resume(ranges.keySet());
    ranges.forEach((tp, range) -> {
      if (range.from() < range.until()) {
        consumer.seek(tp, range.from());
        open.add(tp);
      }
    });
    consumer.pause(done(ranges.keySet(), open));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!open.isEmpty()) {
      ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
      for (TopicPartition tp : records.partitions()) {
        if (open.contains(tp) && take(records.records(tp), ranges.get(tp), out)) {
          open.remove(tp);
          consumer.pause(List.of(tp));
        }
      }
      for (TopicPartition tp : List.copyOf(open)) {
        if (consumer.position(tp, timeout) >= ranges.get(tp).until()) {
          open.remove(tp); // at its end offset: the next fetch would only wait
          consumer.pause(List.of(tp));
        }
      }
      if (records.isEmpty() && !open.isEmpty() && System.nanoTime() > deadline) {
        throw new IllegalStateException("Kafka did not deliver " + open + " within " + timeout);
      }
    }
    return out;
  }

  /** Adds the records within {@code range}; true when the partition is done. */
  private static boolean take(List<ConsumerRecord<String, byte[]>> records, Range range,
      List<ConsumerRecord<String, byte[]>> out) {
    for (ConsumerRecord<String, byte[]> r : records) {
      if (r.offset() >= range.until()) {
        return true;
      }
      out.add(r);
      if (r.timestamp() > range.stopAfterMs()) {
        return true;
      }
    }
    return false;
  }

  private static Set<TopicPartition> done(Set<TopicPartition> all, Set<TopicPartition> open) {
    Set<TopicPartition> done = new HashSet<>(all);
    done.removeAll(open);
    return done;
  }
}
