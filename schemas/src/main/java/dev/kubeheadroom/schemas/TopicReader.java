package dev.kubeheadroom.schemas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Whole topics read from their beginning by a plain consumer with no group (every partition
 * assigned, no offsets committed, {@code read_committed}): how the webhook and the actuator read
 * the compacted {@code config} and {@code namespaces} topics, and ingest's status writer the
 * {@code decisions} topic. No group means no group ACLs and no rebalances: each reader sees every
 * record. It notes each partition's end offset when it assigns, so a reader can tell when it has
 * read what the topics held then ({@link #caughtUp}). One thread uses it; {@link #wakeup} may be
 * called from any.
 */
public final class TopicReader implements AutoCloseable {
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final KafkaConsumer<String, byte[]> consumer;
  private final List<String> topics;
  private Map<TopicPartition, Long> ends; // null until assigned

  /**
   * @param clientConfig bootstrap servers, client id and any client properties (SASL/SSL); a
   *     {@code group.id} in it is dropped
   */
  public TopicReader(Map<String, Object> clientConfig, List<String> topics) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    this.topics = List.copyOf(topics);
  }

  /**
   * Assigns every partition of the topics from the beginning and notes their end offsets. False,
   * with nothing assigned, when a topic does not exist (yet).
   */
  public boolean assign(Duration timeout) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : topics) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      if (infos == null || infos.isEmpty()) {
        return false;
      }
      infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    ends = new HashMap<>(consumer.endOffsets(partitions, timeout));
    return true;
  }

  /** Whether {@link #assign} has succeeded. */
  public boolean assigned() {
    return ends != null;
  }

  public ConsumerRecords<String, byte[]> poll(Duration timeout) {
    return consumer.poll(timeout);
  }

  /** Whether every partition has been read up to its end offset as {@link #assign} saw it. */
  public boolean caughtUp(Duration timeout) {
    if (ends == null) {
      return false;
    }
    for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
      if (consumer.position(e.getKey(), timeout) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Ends a blocking call on the reading thread with a {@code WakeupException}. */
  public void wakeup() {
    consumer.wakeup();
  }

  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
  }
}
