package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.RealBrokerRecords.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.booking.BookingReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka away while the topology's transaction is being committed, long enough for the commit to
 * time out (Streams then closes the tasks dirty and revives them), then back: every pod booked
 * before the outage and removed after it must end as a tombstone in the {@code headroom-pods}
 * changelog (read {@code read_committed}, as a restore reads it). A pod still booked there is a
 * ghost the next restart restores (DESIGN.md, "After a restart").
 */
class OutageReviveBookingsTest {
  private static final String APP = "revive-app";
  private static final int NODES = 6;
  @TempDir Path dataDir;
  @TempDir Path stateDir;
  private EmbeddedKafka broker;
  private TopologyRunner runner;

  @AfterEach
  void stop() {
    if (runner != null) {
      runner.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void everyPodBookedBeforeTheOutageAndRemovedAfterItEndsAsATombstone() throws Exception {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir));
    int port = broker.port();
    Topics topics = new Topics("hr.");
    try (Admin admin = broker.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    // Client timeouts well below the outage, as production's (60 s max.block.ms) were below its
    // 6 minutes: the commit under way when the broker goes times out.
    TopologyRunner.Options options = new TopologyRunner.Options(APP,
        new KafkaClientSettings(broker.bootstrapServers(), Map.of(
            "max.block.ms", "2000",
            "delivery.timeout.ms", "2500",
            "request.timeout.ms", "2000",
            "default.api.timeout.ms", "3000",
            "session.timeout.ms", "6000")), stateDir);
    // The broker stops inside a commit: the transaction's records are written (the commit
    // flushes them first), its offsets and end marker are not. Stopping it from outside would
    // mostly meet records in flight, which expire and abort the transaction instead.
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean();
    UnaryOperator<Producer<byte[], byte[]>> stopBrokerAtCommit = p -> new ForwardingProducer(p) {
      @Override
      public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
          ConsumerGroupMetadata group) {
        if (armed.compareAndSet(true, false)) {
          broker.close();
          stopped.countDown();
        }
        super.sendOffsetsToTransaction(offsets, group);
      }
    };

    List<PodSnapshot> booked = new ArrayList<>();
    try (KafkaProducer<String, byte[]> producer = producer(broker.bootstrapServers())) {
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a",
          JsonCodec.encode(managedNs("team-a"))));
      for (int n = 0; n < NODES; n++) {
        producer.send(record(topics, new NodeSnapshot("n" + n, 16000, "linux", false, Map.of())));
      }
      producer.flush();
      runner = TopologyRunner.start(options, TopologySettings.defaults(topics), TopologyListener.NONE,
          TopologyRunner.DEFAULT_STALL_BOUND, stopBrokerAtCommit);
      assertThat(runner.awaitRunning(Duration.ofSeconds(120))).isTrue();

      // given: pods booked and committed, then more booked in the transaction the outage meets
      booked.addAll(book(producer, topics, 0));
      awaitConsumed(topics.pods());
      armed.set(true);
      booked.addAll(book(producer, topics, booked.size()));

      // when: the broker is away past every client timeout (the commit times out and Streams
      // revives the tasks), then back
      assertThat(stopped.await(60, TimeUnit.SECONDS)).as("a commit met the outage").isTrue();
      Thread.sleep(12_000);
      broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir).withPort(port));

      // and every pod is deleted once it is back
      await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
          producer.send(record(topics, removed(booked.get(0)))).get() != null);
      for (PodSnapshot p : booked) {
        producer.send(record(topics, removed(p)));
      }
      producer.flush();
    }

    // then: once the topology has read every removal, no pod is left booked in the changelog
    awaitConsumed(topics.pods());
    assertThat(bookedInChangelog())
        .as("pods the changelog still books after their removal (ghosts a restore brings back)")
        .isEmpty();
  }

  /** Books two pods on every node, from pod number {@code first} on. */
  private static List<PodSnapshot> book(KafkaProducer<String, byte[]> producer, Topics topics, int first) {
    List<PodSnapshot> pods = new ArrayList<>();
    for (int i = first; i < first + 2 * NODES; i++) {
      PodSnapshot p = pod("team-a", "p" + i, "n" + (i % NODES), 100, 0);
      producer.send(record(topics, p));
      pods.add(p);
    }
    producer.flush();
    return pods;
  }

  /** Waits until the topology's committed offsets on {@code topic} reach its end. */
  private void awaitConsumed(String topic) {
    try (Admin admin = broker.admin()) {
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(APP).partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        for (int p = 0; p < 2; p++) {
          query.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        var ends = admin.listOffsets(query, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
        return ends.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
            && committed.get(e.getKey()).offset() >= e.getValue().offset());
      });
    }
  }

  /** The pod keys whose last {@code read_committed} value in the pods changelog is not a tombstone. */
  private Map<String, Boolean> bookedInChangelog() {
    String changelog = APP + "-" + HeadroomTopology.PODS_STORE + "-changelog";
    Map<String, Boolean> last = new TreeMap<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = List.of(new TopicPartition(changelog, 0), new TopicPartition(changelog, 1));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> ends = consumer.endOffsets(parts);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
        for (var r : consumer.poll(Duration.ofMillis(500))) {
          String pod = r.key().replace(BookingReader.podKey("", ""), "/");
          if (r.value() == null) {
            last.remove(pod);
          } else {
            last.put(pod, true);
          }
        }
      }
    }
    return last;
  }

  private static PodRemoved removed(PodSnapshot p) {
    return new PodRemoved(p.uid(), p.namespace(), p.name(), p.node());
  }

  private static KafkaProducer<String, byte[]> producer(String servers) {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 500, ProducerConfig.LINGER_MS_CONFIG, 0,
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1500, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1000),
        new StringSerializer(), new ByteArraySerializer());
  }
}
