package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.SchemaException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link ClusterConfig} from the compacted {@code config} topic (key {@code cluster}),
 * read without a consumer group from the beginning. No record, or a tombstone, means
 * {@link ClusterConfig#DEFAULTS}; an unreadable record is logged and the last good config stays.
 * Used from the actuator's loop thread only.
 */
final class ClusterConfigReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterConfigReader.class);

  private final KafkaConsumer<String, byte[]> consumer;
  private final String topic;
  private final UnaryOperator<ClusterConfig> view;
  private ClusterConfig current;

  ClusterConfigReader(ActuatorSettings settings) {
    Map<String, Object> config = new HashMap<>(settings.common());
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-config");
    config.putAll(settings.clientProperties());
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    this.topic = settings.topics().config();
    this.view = settings.configView();
    this.current = view.apply(ClusterConfig.DEFAULTS);
  }

  /** Assigns every partition and reads to the end; the defaults stay if the topic is empty. */
  ClusterConfig load(Duration timeout) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalStateException("config topic " + topic + " does not exist");
    }
    List<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read config topic " + topic + " within " + timeout);
      }
      take(consumer.poll(Duration.ofMillis(100)));
    }
    return current;
  }

  /** Whatever arrived since the last call, without waiting; the new config if it changed. */
  Optional<ClusterConfig> poll() {
    ClusterConfig before = current;
    take(consumer.poll(Duration.ZERO));
    return current.equals(before) ? Optional.empty() : Optional.of(current);
  }

  ClusterConfig current() {
    return current;
  }

  private void take(Iterable<ConsumerRecord<String, byte[]>> records) {
    for (ConsumerRecord<String, byte[]> record : records) {
      if (!HeadroomKeys.CONFIG_NAME.equals(record.key())) {
        continue;
      }
      if (record.value() == null) {
        current = view.apply(ClusterConfig.DEFAULTS);
        continue;
      }
      try {
        current = view.apply(HeadroomSerdes.config().deserialize(topic, record.value()));
      } catch (SchemaException | IllegalArgumentException e) {
        LOG.warn("Ignoring unreadable config at {}-{}@{} (keeping the last good one): {}",
            record.topic(), record.partition(), record.offset(), e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
  }
}
