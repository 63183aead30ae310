package dev.kubeheadroom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

@WithKafka
class KafkaBrokerTest {

  private final KafkaBroker kafka;

  KafkaBrokerTest(KafkaBroker kafka) {
    this.kafka = kafka;
  }

  @Test
  void producingRightAfterCreatingATopicLosesNothingOnAnyPartition() throws Exception {
    // given a fresh topic with 6 partitions
    String topic = kafka.createTopic("orders", 6);
    try (Admin admin = kafka.admin()) {
      assertThat(admin.describeTopics(Set.of(topic)).allTopicNames().get().get(topic).partitions())
          .hasSize(6);
    }

    // when an idempotent acks=all producer sends 600 records at once
    try (KafkaProducer<String, String> producer = kafka.stringProducer()) {
      for (int i = 0; i < 600; i++) {
        producer.send(new ProducerRecord<>(topic, "node-" + i, Integer.toString(i)));
      }
    }

    // then every record is read back, from every partition
    List<ConsumerRecord<String, String>> records = kafka.consumeAtLeast(topic, 600);
    assertThat(records).hasSize(600);
    assertThat(records.stream().map(ConsumerRecord::partition).collect(Collectors.toSet()))
        .hasSize(6);
  }

  @Test
  void transactionalProducerPublishesCommittedBatchesOnly() {
    // given a transactional producer, as exactly_once_v2 uses
    String topic = kafka.createTopic("decisions", 3);
    try (KafkaProducer<String, String> producer =
        kafka.transactionalProducer(
            TestKafka.uniqueName("tx"), new StringSerializer(), new StringSerializer())) {
      producer.initTransactions();

      // when one batch aborts between two that commit
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "a", "committed"));
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "b", "aborted"));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "c", "committed"));
      producer.commitTransaction();
    }

    // then read_committed consumers see the committed ones only
    List<ConsumerRecord<String, String>> records =
        kafka.consumeUntil(
            topic,
            seen -> seen.stream().anyMatch(r -> r.key().equals("c")),
            KafkaBroker.DEFAULT_TIMEOUT);
    assertThat(records).extracting(ConsumerRecord::key).containsExactlyInAnyOrder("a", "c");
  }

  @Test
  void topicConfigsAreApplied() throws Exception {
    String topic = TestKafka.uniqueName("config");
    kafka.createTopics(Map.of(topic, 1), Map.of("cleanup.policy", "compact"));

    try (Admin admin = kafka.admin()) {
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      Config config = admin.describeConfigs(Set.of(resource)).all().get().get(resource);
      assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
    }
  }

  @Test
  void consumeUntilFailsWithWhatItSawWhenTheConditionNeverHolds() {
    String topic = kafka.createTopic("empty", 1);

    assertThatThrownBy(
            () -> kafka.consumeUntil(topic, seen -> !seen.isEmpty(), Duration.ofMillis(500)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(topic)
        .hasMessageContaining("after reading 0 record(s)");
  }

  @Test
  void consumeUntilReportsATopicThatNeverAppears() {
    assertThatThrownBy(
            () -> kafka.consumeUntil("no-such-topic", seen -> false, Duration.ofMillis(500)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("topic no-such-topic did not appear");
  }
}
