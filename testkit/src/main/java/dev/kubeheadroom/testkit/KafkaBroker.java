package dev.kubeheadroom.testkit;

import dev.kubeheadroom.schemas.TopicReadiness;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A running Kafka broker a test can use, and the client helpers tests need.
 *
 * <p>The broker is usually shared by every test class in the JVM ({@link TestKafka#shared()}), so
 * tests must not assume an empty broker: use {@link #createTopic} (unique names) or names of their
 * own. Topics are never auto-created.
 */
public interface KafkaBroker {

  /** How long helpers wait by default. */
  Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** {@code host:port} for {@code bootstrap.servers}. */
  String bootstrapServers();

  /** What kind of broker this is and where, for messages. */
  String description();

  /** An admin client for this broker; the caller closes it. */
  default Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
  }

  /**
   * Creates the topics that do not exist yet and returns once every partition has a leader that
   * serves it (producing earlier can lose records, see {@link TopicReadiness}).
   */
  default void createTopics(Map<String, Integer> partitionsByName, Map<String, String> topicConfigs) {
    TopicReadiness.createAndAwaitLeaders(this::admin, partitionsByName, topicConfigs);
  }

  default void createTopics(Map<String, Integer> partitionsByName) {
    createTopics(partitionsByName, Map.of());
  }

  /**
   * Creates a topic named {@code baseName} plus a suffix unique in this JVM, ready for writes.
   *
   * @return the topic's name
   */
  default String createTopic(String baseName, int partitions) {
    String name = TestKafka.uniqueName(baseName);
    createTopics(Map.of(name, partitions));
    return name;
  }

  /** {@code bootstrap.servers} only: a mutable start for any client or Streams config. */
  default Map<String, Object> clientConfig() {
    Map<String, Object> config = new HashMap<>();
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return config;
  }

  /** Idempotent, {@code acks=all}, no linger, bounded blocking: a producer that loses nothing. */
  default Map<String, Object> producerConfig() {
    Map<String, Object> config = clientConfig();
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) DEFAULT_TIMEOUT.toMillis());
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DEFAULT_TIMEOUT.toMillis());
    return config;
  }

  /**
   * Reads from the earliest offset, {@code read_committed}, no auto-commit; {@code groupId} may be
   * null for a consumer that only uses {@code assign}.
   */
  default Map<String, Object> consumerConfig(String groupId) {
    Map<String, Object> config = clientConfig();
    if (groupId != null) {
      config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    }
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return config;
  }

  default <K, V> KafkaProducer<K, V> producer(Serializer<K> keys, Serializer<V> values) {
    return new KafkaProducer<>(producerConfig(), keys, values);
  }

  default KafkaProducer<String, String> stringProducer() {
    return producer(new StringSerializer(), new StringSerializer());
  }

  /** A producer with {@code transactional.id} set; call {@code initTransactions()} first. */
  default <K, V> KafkaProducer<K, V> transactionalProducer(
      String transactionalId, Serializer<K> keys, Serializer<V> values) {
    Map<String, Object> config = producerConfig();
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    return new KafkaProducer<>(config, keys, values);
  }

  default <K, V> KafkaConsumer<K, V> consumer(
      String groupId, Deserializer<K> keys, Deserializer<V> values) {
    return new KafkaConsumer<>(consumerConfig(groupId), keys, values);
  }

  /**
   * Reads {@code topic} from the beginning of every partition ({@code read_committed}, no consumer
   * group) until {@code done} holds for the records read so far, and returns them (the last poll
   * may add a few beyond the point where {@code done} first held). Waits for the topic to appear.
   *
   * @throws AssertionError if {@code done} does not hold within {@code timeout}; the message says
   *     how many records were read and shows the last few
   */
  default <K, V> List<ConsumerRecord<K, V>> consumeUntil(
      String topic,
      Deserializer<K> keys,
      Deserializer<V> values,
      Predicate<? super List<ConsumerRecord<K, V>>> done,
      Duration timeout) {
    return Consuming.until(this, topic, keys, values, done, timeout);
  }

  /** {@link #consumeUntil(String, Deserializer, Deserializer, Predicate, Duration)} for strings. */
  default List<ConsumerRecord<String, String>> consumeUntil(
      String topic, Predicate<? super List<ConsumerRecord<String, String>>> done, Duration timeout) {
    return consumeUntil(topic, new StringDeserializer(), new StringDeserializer(), done, timeout);
  }

  /** Reads string records from {@code topic} until at least {@code count} have arrived. */
  default List<ConsumerRecord<String, String>> consumeAtLeast(String topic, int count) {
    return consumeUntil(topic, records -> records.size() >= count, DEFAULT_TIMEOUT);
  }
}
