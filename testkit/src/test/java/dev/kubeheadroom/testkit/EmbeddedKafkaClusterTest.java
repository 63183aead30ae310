package dev.kubeheadroom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes, replication factor 3, min ISR 2: a node lost and brought back mid-stream loses no
 * acknowledged record. On demand ({@code -Pscale}, ~1 min here): verify exercises the cluster
 * through demo's {@code ScaleOutFailoverTest}, which loses a node under the whole pipeline.
 */
@Tag("scale")
class EmbeddedKafkaClusterTest {
  /** Shorter than the 9 s default so the lost node is fenced (and its leaders moved) quickly. */
  private static final Map<String, String> FAST_FENCING =
      Map.of("broker.session.timeout.ms", "4000", "broker.heartbeat.interval.ms", "1000");

  @Test
  void aNodeStoppedAndRestartedMidStreamLosesNoAcknowledgedRecord(@TempDir Path dir) throws Exception {
    try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.start(dir, 3, FAST_FENCING)) {
      // given a topic at the cluster's defaults: 3 replicas, every one in sync, min ISR 2
      kafka.createTopics(Map.of("events", 3), Map.of());
      try (Admin admin = kafka.admin()) {
        TopicDescription events = admin.describeTopics(Set.of("events")).allTopicNames().get().get("events");
        assertThat(events.partitions()).allSatisfy(p -> {
          assertThat(p.replicas()).hasSize(3);
          assertThat(p.isr()).hasSize(3);
        });
      }
      // when an idempotent acks=all producer sends throughout, and the node leading partition 0 stops
      List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean producing = new AtomicBoolean(true);
      Thread producer = new Thread(() -> produce(kafka, producing, acknowledged), "test-producer");
      producer.start();
      awaitCount(acknowledged, 200);
      int victim = leaderOfPartitionZero(kafka) - 1;
      kafka.stop(victim);
      int atStop = acknowledged.size();
      awaitCount(acknowledged, atStop + 300); // the survivors take writes again
      kafka.restart(victim);
      int atRestart = acknowledged.size();
      awaitCount(acknowledged, atRestart + 200);
      producing.set(false);
      producer.join(TimeUnit.SECONDS.toMillis(60));

      // then every acknowledged record is there exactly once, and the node is back in every ISR
      assertThat(readAll(kafka)).containsExactlyInAnyOrderElementsOf(acknowledged);
      try (Admin admin = kafka.admin()) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!allInSync(admin) && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertThat(allInSync(admin)).as("the restarted node rejoined every ISR").isTrue();
      }
    }
  }

  private static void produce(EmbeddedKafkaCluster kafka, AtomicBoolean producing, List<String> acknowledged) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; producing.get(); i++) {
        String value = "v" + i;
        producer.send(new ProducerRecord<>("events", "k" + (i % 30), value), (meta, error) -> {
          if (error == null) {
            acknowledged.add(value);
          }
        });
        if (i % 20 == 0) {
          Thread.sleep(10); // a steady stream, not a flood
        }
      }
      producer.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int leaderOfPartitionZero(EmbeddedKafkaCluster kafka) throws Exception {
    try (Admin admin = kafka.admin()) {
      TopicDescription events = admin.describeTopics(Set.of("events")).allTopicNames().get().get("events");
      Node leader = events.partitions().get(0).leader();
      return leader.id();
    }
  }

  private static boolean allInSync(Admin admin) throws Exception {
    TopicDescription events = admin.describeTopics(Set.of("events")).allTopicNames().get().get("events");
    return events.partitions().stream().map(TopicPartitionInfo::isr).allMatch(isr -> isr.size() == 3);
  }

  private static void awaitCount(List<String> acknowledged, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (acknowledged.size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + acknowledged.size() + " of " + count + " records acknowledged in 90 s");
      }
      Thread.sleep(20);
    }
  }

  private static List<String> readAll(EmbeddedKafkaCluster kafka) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = List.of(new TopicPartition("events", 0),
          new TopicPartition("events", 1), new TopicPartition("events", 2));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<String> values = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
          && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          values.add(r.value());
        }
      }
      return values;
    }
  }
}
