package dev.kubeheadroom.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One broker for the class; the restart and failure tests use their own directories. */
class EmbeddedKafkaTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir static Path sharedDir;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start(sharedDir);
    System.out.printf("broker start (first in this JVM): %d ms%n", kafka.startupTime().toMillis());
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void idempotentProducerWithAcksAllDeliversEveryRecordToEveryPartition() {
    // given a topic with 4 partitions, created and ready
    String topic = "plain";
    kafka.createTopics(Map.of(topic, 4), Map.of());

    // when an idempotent producer sends 400 records straight away
    try (KafkaProducer<String, String> producer = producer(kafka, Map.of())) {
      for (int i = 0; i < 400; i++) {
        producer.send(new ProducerRecord<>(topic, "node-" + i, "v" + i));
      }
      producer.flush();
    }

    // then all 400 come back, spread over all 4 partitions
    List<ConsumerRecord<String, String>> records =
        consumeUntil(kafka, topic, "read_uncommitted", all -> all.size() >= 400);
    assertThat(records).hasSize(400);
    assertThat(records.stream().map(ConsumerRecord::partition).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void readCommittedConsumersSeeCommittedTransactionsAndNotAbortedOnes() {
    // given a transactional producer (what exactly_once_v2 uses underneath)
    String topic = "transactional";
    kafka.createTopics(Map.of(topic, 2), Map.of());
    try (KafkaProducer<String, String> producer =
        producer(kafka, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-1"))) {
      producer.initTransactions();

      // when one transaction commits and the next aborts
      producer.beginTransaction();
      for (int i = 0; i < 10; i++) {
        producer.send(new ProducerRecord<>(topic, "k" + i, "committed"));
      }
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k-aborted", "aborted"));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k-last", "committed"));
      producer.commitTransaction();
    }

    // then a read_committed consumer sees the 11 committed records only
    List<ConsumerRecord<String, String>> records =
        consumeUntil(kafka, topic, "read_committed", all -> all.stream()
            .anyMatch(r -> r.key().equals("k-last")));
    assertThat(records).hasSize(11).allSatisfy(r -> assertThat(r.value()).isEqualTo("committed"));
  }

  @Test
  void consumeTransformProduceCommitsOffsetsInsideTheTransaction() throws Exception {
    // given input records and a consumer group, as a Streams task would have
    kafka.createTopics(Map.of("eos-in", 1, "eos-out", 1), Map.of());
    try (KafkaProducer<String, String> producer = producer(kafka, Map.of())) {
      for (int i = 0; i < 5; i++) {
        producer.send(new ProducerRecord<>("eos-in", "k" + i, "v" + i));
      }
    }
    Properties consumerProps = consumerProps(kafka, "read_committed");
    consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "eos-group");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps);
        KafkaProducer<String, String> producer =
            producer(kafka, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "eos-app-0"))) {
      producer.initTransactions();
      consumer.subscribe(List.of("eos-in"));
      List<ConsumerRecord<String, String>> input = new ArrayList<>();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (input.size() < 5 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(100)).forEach(input::add);
      }
      assertThat(input).hasSize(5);

      // when the output and the consumed offsets commit in one transaction (the v2 protocol:
      // offsets carry the consumer's group metadata)
      producer.beginTransaction();
      input.forEach(r -> producer.send(new ProducerRecord<>("eos-out", r.key(), r.value() + "!")));
      producer.sendOffsetsToTransaction(
          Map.of(new TopicPartition("eos-in", 0), new OffsetAndMetadata(5)),
          consumer.groupMetadata());
      producer.commitTransaction();
    }

    // then both the output and the group's offset are visible
    assertThat(consumeUntil(kafka, "eos-out", "read_committed", all -> all.size() >= 5))
        .extracting(ConsumerRecord::value)
        .containsExactly("v0!", "v1!", "v2!", "v3!", "v4!");
    try (Admin admin = kafka.admin()) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets("eos-group").partitionsToOffsetAndMetadata().get();
      assertThat(committed.get(new TopicPartition("eos-in", 0)).offset()).isEqualTo(5);
    }
  }

  @Test
  void creatingExistingTopicsAgainIsHarmless() {
    kafka.createTopics(Map.of("again", 3), Map.of("cleanup.policy", "compact"));
    kafka.createTopics(Map.of("again", 3), Map.of("cleanup.policy", "compact"));
  }

  @Test
  void restartOnTheSameDirectoryKeepsTheClusterIdAndTheRecords(@TempDir Path dir) {
    // given a broker that wrote three records and stopped
    String clusterId;
    try (EmbeddedKafka first = EmbeddedKafka.start(dir)) {
      assertThat(first.freshlyFormatted()).isTrue();
      clusterId = first.clusterId();
      first.createTopics(Map.of("durable", 2), Map.of());
      try (KafkaProducer<String, String> producer = producer(first, Map.of())) {
        producer.send(new ProducerRecord<>("durable", "a", "1"));
        producer.send(new ProducerRecord<>("durable", "b", "2"));
        producer.send(new ProducerRecord<>("durable", "c", "3"));
      }
    }

    // when a new broker starts on the same directory (on new ephemeral ports)
    try (EmbeddedKafka second = EmbeddedKafka.start(dir)) {
      System.out.printf("broker restart (warm JVM): %d ms%n", second.startupTime().toMillis());

      // then it reuses the cluster id and still has the records
      assertThat(second.freshlyFormatted()).isFalse();
      assertThat(second.clusterId()).isEqualTo(clusterId);
      second.createTopics(Map.of("durable", 2), Map.of());
      assertThat(consumeUntil(second, "durable", "read_committed", all -> all.size() >= 3))
          .extracting(ConsumerRecord::value)
          .containsExactlyInAnyOrder("1", "2", "3");
    }
  }

  @Test
  void aSecondBrokerOnALockedDirectoryFailsWithAClearMessage() {
    assertThatThrownBy(() -> EmbeddedKafka.start(sharedDir))
        .isInstanceOf(EmbeddedKafkaException.class)
        .hasMessageContaining(sharedDir.toAbsolutePath().toString())
        .hasMessageContaining("in use by another broker");
  }

  @Test
  void aDataDirectoryThatIsAFileIsRejected(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    assertThatThrownBy(() -> EmbeddedKafka.start(file))
        .isInstanceOf(EmbeddedKafkaException.class)
        .hasMessageContaining("not-a-dir");
  }

  @Test
  void aFixedPortAlreadyInUseIsRejected(@TempDir Path dir) throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      EmbeddedKafkaConfig config = EmbeddedKafkaConfig.ephemeral(dir).withPort(taken.getLocalPort());
      assertThatThrownBy(() -> EmbeddedKafka.start(config))
          .isInstanceOf(EmbeddedKafkaException.class)
          .hasMessageContaining("port " + taken.getLocalPort())
          .hasMessageContaining("already in use");
    }
    // and the failed start released the directory
    try (var channel = java.nio.channels.FileChannel.open(
        dir.resolve("embedded-kafka.lock"), java.nio.file.StandardOpenOption.WRITE)) {
      assertThat(channel.tryLock()).isNotNull();
    }
  }

  @Test
  void anInvalidBrokerOverrideIsRejectedBeforeAnythingIsFormatted(@TempDir Path dir) {
    EmbeddedKafkaConfig config =
        EmbeddedKafkaConfig.ephemeral(dir).withBrokerProperty("log.retention.hours", "soon");

    assertThatThrownBy(() -> EmbeddedKafka.start(config))
        .isInstanceOf(EmbeddedKafkaException.class)
        .hasMessageContaining("invalid broker configuration")
        .hasMessageContaining("log.retention.hours");
    assertThat(dir.resolve("kraft-logs")).doesNotExist();
  }

  @Test
  void bindsToLoopbackOnly() {
    Properties props = EmbeddedKafka.brokerProperties(Path.of("/tmp/x"), 1234, 5678);
    assertThat(props.getProperty("listeners"))
        .isEqualTo("PLAINTEXT://127.0.0.1:1234,CONTROLLER://127.0.0.1:5678");
    assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
  }

  static KafkaProducer<String, String> producer(EmbeddedKafka broker, Map<String, Object> extra) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.putAll(extra);
    return new KafkaProducer<>(props);
  }

  static Properties consumerProps(EmbeddedKafka broker, String isolation) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    return props;
  }

  /** Reads the whole topic from the start until {@code done} holds or the timeout passes. */
  static List<ConsumerRecord<String, String>> consumeUntil(
      EmbeddedKafka broker,
      String topic,
      String isolation,
      Predicate<List<ConsumerRecord<String, String>>> done) {
    List<ConsumerRecord<String, String>> seen = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(consumerProps(broker, isolation))) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!done.test(seen) && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
      }
    }
    return seen;
  }
}
