package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** (In testkit, which has the broker: schemas' own tests run without one.) */
@WithKafka
class TopicReaderTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test
  void aMissingTopicIsNotAssignedAndNotCaughtUp(KafkaBroker kafka) {
    try (TopicReader reader = new TopicReader(kafka.clientConfig(),
        List.of(TestKafka.uniqueName("absent")))) {
      assertThat(reader.assign(Duration.ofSeconds(2))).isFalse();
      assertThat(reader.assigned()).isFalse();
      assertThat(reader.caughtUp(TIMEOUT)).isFalse();
    }
  }

  @Test
  void readsEveryPartitionFromTheBeginningUntilCaughtUpWithTheEndSeenAtAssign(KafkaBroker kafka) {
    // given two topics with records in several partitions
    String a = kafka.createTopic("reader-a", 3);
    String b = kafka.createTopic("reader-b", 1);
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.producerConfig(),
        new StringSerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < 6; i++) {
        producer.send(new ProducerRecord<>(a, i % 3, "k" + i, bytes("a" + i)));
      }
      producer.send(new ProducerRecord<>(b, "k", bytes("b")));
      producer.flush();
    }
    // and a consumer config that names a group (dropped: no group, no committed offsets)
    Map<String, Object> config = new java.util.HashMap<>(kafka.consumerConfig("some-group"));
    try (TopicReader reader = new TopicReader(config, List.of(a, b))) {
      // when
      assertThat(reader.assign(TIMEOUT)).isTrue();
      List<String> values = new ArrayList<>();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!reader.caughtUp(TIMEOUT) && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : reader.poll(Duration.ofMillis(100))) {
          values.add(new String(r.value(), StandardCharsets.UTF_8));
        }
      }
      // then
      assertThat(reader.caughtUp(TIMEOUT)).isTrue();
      assertThat(values).containsExactlyInAnyOrder("a0", "a1", "a2", "a3", "a4", "a5", "b");
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
