package dev.kubeheadroom.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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

/**
 * Topics of one partition each, in memory, read through a {@link MockConsumer} that fetches as
 * a broker would (from each unpaused partition's position) and answers the time index.
 */
final class MemoryTopics {
  private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> partitions = new HashMap<>();

  MemoryTopics(List<String> topics) {
    topics.forEach(t -> partitions.put(new TopicPartition(t, 0), new ArrayList<>()));
  }

  /** Appends a record to {@code topic}; returns its offset. */
  long add(String topic, String key, byte[] value, Instant at) {
    List<ConsumerRecord<String, byte[]>> list = partitions.get(new TopicPartition(topic, 0));
    list.add(new ConsumerRecord<>(topic, 0, list.size(), at.toEpochMilli(), TimestampType.CREATE_TIME, 0,
        value == null ? 0 : value.length, key, value, new RecordHeaders(), Optional.empty()));
    return list.size() - 1L;
  }

  /** A fresh consumer over the records as they are now. */
  MockConsumer<String, byte[]> consumer() {
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
    partitions.keySet().forEach(tp -> consumer.updatePartitions(tp.topic(),
        List.of(new PartitionInfo(tp.topic(), 0, Node.noNode(), new Node[0], new Node[0]))));
    consumer.updateBeginningOffsets(begins);
    consumer.updateEndOffsets(ends);
    return consumer;
  }
}
