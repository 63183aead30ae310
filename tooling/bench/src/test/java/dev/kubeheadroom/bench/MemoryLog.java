package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.Topics;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;

/**
 * Topics in memory, read through a {@link MockConsumer}: node-keyed records placed by the
 * producer's default partitioner (murmur2 of the key), the compacted topics in one partition.
 */
final class MemoryLog {
  static final int PARTITIONS = 6;

  record Raw(String topic, String key, byte[] value, Instant at) {}

  private final Topics topics;
  private final List<Raw> records = new ArrayList<>();

  MemoryLog(Topics topics) {
    this.topics = topics;
  }

  void add(String topic, String key, byte[] value, Instant at) {
    records.add(new Raw(topic, key, value, at));
  }

  List<Raw> records() {
    return List.copyOf(records);
  }

  int partition(String key) {
    return key == null ? 0 : Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
  }

  private int partitions(String topic) {
    return topics.compacted().contains(topic) ? 1 : PARTITIONS;
  }

  /** A fresh consumer over every topic's records as they are now. */
  MockConsumer<String, byte[]> consumer() {
    Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> byPartition = new HashMap<>();
    Map<TopicPartition, Long> begins = new HashMap<>();
    Map<TopicPartition, Long> ends = new HashMap<>();
    List<String> names = new ArrayList<>(topics.nodeKeyed());
    names.addAll(topics.compacted());
    for (String topic : names) {
      for (int p = 0; p < partitions(topic); p++) {
        TopicPartition tp = new TopicPartition(topic, p);
        byPartition.put(tp, new ArrayList<>());
        begins.put(tp, 0L);
      }
    }
    for (Raw r : records) {
      int p = partitions(r.topic()) == 1 ? 0 : partition(r.key());
      List<ConsumerRecord<String, byte[]>> list = byPartition.get(new TopicPartition(r.topic(), p));
      list.add(new ConsumerRecord<>(r.topic(), p, list.size(), r.at().toEpochMilli(), TimestampType.CREATE_TIME,
          0, r.value().length, r.key(), r.value(), new RecordHeaders(), Optional.empty()));
    }
    byPartition.forEach((tp, list) -> ends.put(tp, (long) list.size()));
    MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest") {
      @Override
      public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
        // hands over what each assigned, unpaused partition has from its position, as a fetch would
        for (TopicPartition tp : assignment()) {
          if (!paused().contains(tp)) {
            List<ConsumerRecord<String, byte[]>> list = byPartition.get(tp);
            for (long o = position(tp); o < list.size(); o++) {
              addRecord(list.get((int) o));
            }
          }
        }
        return super.poll(timeout);
      }
    };
    for (String topic : names) {
      List<PartitionInfo> infos = new ArrayList<>();
      for (int p = 0; p < partitions(topic); p++) {
        infos.add(new PartitionInfo(topic, p, Node.noNode(), new Node[0], new Node[0]));
      }
      consumer.updatePartitions(topic, infos);
    }
    consumer.updateBeginningOffsets(begins);
    consumer.updateEndOffsets(ends);
    return consumer;
  }
}
