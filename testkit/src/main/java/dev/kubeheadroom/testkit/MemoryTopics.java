package dev.kubeheadroom.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;

/**
 * Topics in memory, read through a {@link MockConsumer} that fetches as a broker would (from each
 * assigned, unpaused partition's position) and answers the time index. A record goes to the
 * partition the producer's default partitioner picks for its key (murmur2), a keyless one to 0.
 */
public final class MemoryTopics {
  /** A record as it was added, in the order of adding. */
  public record Added(String topic, String key, byte[] value, Instant at) {}

  private final Map<String, Integer> partitionCounts;
  private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> partitions = new HashMap<>();
  private final List<Added> added = new ArrayList<>();

  /** {@code partitionCounts}: each topic and how many partitions it has. */
  public MemoryTopics(Map<String, Integer> partitionCounts) {
    this.partitionCounts = new LinkedHashMap<>(partitionCounts);
    partitionCounts.forEach((topic, count) -> {
      for (int p = 0; p < count; p++) {
        partitions.put(new TopicPartition(topic, p), new ArrayList<>());
      }
    });
  }

  /** Topics of one partition each. */
  public static MemoryTopics onePartitionEach(List<String> topics) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    topics.forEach(t -> counts.put(t, 1));
    return new MemoryTopics(counts);
  }

  /** The partition of {@code topic} a record keyed {@code key} goes to. */
  public int partition(String topic, String key) {
    int count = partitionCounts.get(topic);
    return key == null || count == 1 ? 0
        : Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % count;
  }

  /** Appends a record to {@code topic}; returns its offset in its partition. */
  public long add(String topic, String key, byte[] value, Instant at) {
    int p = partition(topic, key);
    List<ConsumerRecord<String, byte[]>> list = partitions.get(new TopicPartition(topic, p));
    list.add(new ConsumerRecord<>(topic, p, list.size(), at.toEpochMilli(), TimestampType.CREATE_TIME, 0,
        value == null ? 0 : value.length, key, value, new RecordHeaders(), Optional.empty()));
    added.add(new Added(topic, key, value, at));
    return list.size() - 1L;
  }

  /** Every record added, in the order of adding. */
  public List<Added> records() {
    return List.copyOf(added);
  }

  /** A fresh consumer over the records as they are now. */
  public MockConsumer<String, byte[]> consumer() {
    Map<TopicPartition, Long> begins = new HashMap<>();
    Map<TopicPartition, Long> ends = new HashMap<>();
    partitions.forEach((tp, list) -> {
      begins.put(tp, 0L);
      ends.put(tp, (long) list.size());
    });
    MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest") {
      @Override
      public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
        for (TopicPartition tp : assignment()) {
          if (!paused().contains(tp)) {
            List<ConsumerRecord<String, byte[]>> list = partitions.get(tp);
            for (long o = position(tp); o < list.size(); o++) {
              addRecord(list.get((int) o));
            }
          }
        }
        return super.poll(timeout);
      }

      @Override
      public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> query,
          Duration timeout) {
        Map<TopicPartition, OffsetAndTimestamp> out = new HashMap<>();
        query.forEach((tp, ms) -> partitions.get(tp).stream().filter(r -> r.timestamp() >= ms).findFirst()
            .ifPresent(r -> out.put(tp, new OffsetAndTimestamp(r.offset(), r.timestamp()))));
        return out;
      }
    };
    partitionCounts.forEach((topic, count) -> {
      List<PartitionInfo> infos = new ArrayList<>();
      for (int p = 0; p < count; p++) {
        infos.add(new PartitionInfo(topic, p, Node.noNode(), new Node[0], new Node[0]));
      }
      consumer.updatePartitions(topic, infos);
    });
    consumer.updateBeginningOffsets(begins);
    consumer.updateEndOffsets(ends);
    return consumer;
  }
}
