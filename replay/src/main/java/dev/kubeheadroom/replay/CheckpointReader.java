package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.SchemaException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Finds the checkpoints an audit starts from: the latest boundary at or before a moment, through
 * Kafka's time index (a checkpoint's record time is its boundary), so the cost does not grow with
 * the topic's length: per partition, a short read back from the moment, then one boundary's
 * records.
 */
public final class CheckpointReader {
  /** How far back from the moment's offset a partition is read to find its last boundary. */
  static final int LOOK_BACK = 256;
  private static final Duration POLL = Duration.ofMillis(200);

  private final Consumer<String, byte[]> consumer;
  private final Duration timeout;

  /** @param consumer a consumer with no group (assignment only); the caller closes it */
  public CheckpointReader(Consumer<String, byte[]> consumer, Duration timeout) {
    this.consumer = consumer;
    this.timeout = timeout;
  }

  /** The cut at the latest boundary at or before {@code at}, if the topic holds one. */
  public Optional<CheckpointCut> latest(String topic, Instant at) {
    List<TopicPartition> partitions = partitions(topic);
    if (partitions.isEmpty()) {
      return Optional.empty(); // no checkpoints topic: a pipeline from before checkpoints
    }
    consumer.assign(partitions);
    Map<TopicPartition, Long> begins = consumer.beginningOffsets(partitions, timeout);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
    Map<TopicPartition, Long> after = offsetsAfter(partitions, at.toEpochMilli() + 1, ends);
    long boundary = Long.MIN_VALUE;
    for (TopicPartition tp : partitions) {
      long until = after.get(tp);
      long from = Math.max(begins.get(tp), until - LOOK_BACK);
      for (ConsumerRecord<String, byte[]> r : read(tp, from, until, Long.MAX_VALUE)) {
        if (r.timestamp() <= at.toEpochMilli()) {
          boundary = Math.max(boundary, r.timestamp());
        }
      }
    }
    if (boundary == Long.MIN_VALUE) {
      return Optional.empty();
    }
    return Optional.of(cut(partitions, Instant.ofEpochMilli(boundary), ends));
  }

  private CheckpointCut cut(List<TopicPartition> partitions, Instant boundary, Map<TopicPartition, Long> ends) {
    Map<TopicPartition, Long> starts = offsetsAfter(partitions, boundary.toEpochMilli(), ends);
    Map<String, NodeCheckpoint> byKey = new TreeMap<>(); // a compacted twin: the last one wins
    for (TopicPartition tp : partitions) {
      for (ConsumerRecord<String, byte[]> r : read(tp, starts.get(tp), ends.get(tp), boundary.toEpochMilli())) {
        if (r.timestamp() != boundary.toEpochMilli() || r.value() == null) {
          continue;
        }
        try {
          NodeCheckpoint c = JsonCodec.decode(r.value(), NodeCheckpoint.class);
          if (c.at().equals(boundary)) {
            byKey.put(c.key(), c);
          }
        } catch (SchemaException e) {
          // unreadable: that node is replayed as unknown at the cut (verify reports the record)
        }
      }
    }
    return new CheckpointCut(boundary, new ArrayList<>(byKey.values()));
  }

  private List<TopicPartition> partitions(String topic) {
    try {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      List<TopicPartition> out = new ArrayList<>();
      if (infos != null) {
        infos.forEach(p -> out.add(new TopicPartition(p.topic(), p.partition())));
      }
      return out;
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
   * The records of {@code tp} in [{@code from}, {@code until}), stopping after the first one
   * later than {@code stopAfterMs}: a checkpoint partition is its nodes' partition
   * ({@code CheckpointPartitioner}), written by one task in boundary order.
   */
  private List<ConsumerRecord<String, byte[]>> read(TopicPartition tp, long from, long until, long stopAfterMs) {
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    if (from >= until) {
      return out;
    }
    consumer.assign(List.of(tp));
    consumer.seek(tp, from);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (consumer.position(tp, timeout) < until) {
      var records = consumer.poll(POLL);
      for (ConsumerRecord<String, byte[]> r : records.records(tp)) {
        if (r.offset() >= until) {
          return out;
        }
        out.add(r);
        if (r.timestamp() > stopAfterMs) {
          return out;
        }
      }
      if (records.isEmpty() && System.nanoTime() > deadline) {
        throw new IllegalStateException("Kafka did not deliver " + tp + " within " + timeout);
      }
    }
    return out;
  }
}
