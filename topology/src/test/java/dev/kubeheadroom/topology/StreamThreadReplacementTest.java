package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.RealBrokerRecords.committedDecisions;
import static dev.kubeheadroom.topology.RealBrokerRecords.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream thread that Kafka failed ({@link KafkaUnavailable}) is replaced in process, and the
 * replaced thread's member leaves the group (StreamsClients): the new thread gets the
 * partitions as soon as the old one has let go of its tasks, not one {@code session.timeout.ms}
 * later. The session timeout here (60 s) is twice the wait allowed for the dead member to go, so a
 * member left in the group fails the test.
 */
class StreamThreadReplacementTest {
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(60);

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
  void aReplacedStreamThreadLeavesTheGroupSoTheNewOneDecidesWithinSeconds() throws Exception {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir));
    Topics topics = new Topics("hr.");
    try (Admin admin = broker.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3), Duration.ofSeconds(30));
    }
    TopologyRunner.Options options = new TopologyRunner.Options("replace-app",
        new KafkaClientSettings(broker.bootstrapServers(), Map.of(
            "commit.interval.ms", "100",
            "session.timeout.ms", Long.toString(SESSION_TIMEOUT.toMillis()))), stateDir);
    // The first evaluation fails as a send does while Kafka is away: the thread is replaced.
    AtomicBoolean failed = new AtomicBoolean();
    TopologyListener failOnce = new TopologyListener() {
      @Override
      public void evaluated(String node, long nanos) {
        if (failed.compareAndSet(false, true)) {
          throw new TimeoutException("Kafka unreachable (injected)");
        }
      }
    };

    try (KafkaProducer<String, byte[]> producer = producer(broker.bootstrapServers())) {
      // Each taken before the next (a lost namespace would leave nothing managed to decide).
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing()))).get();
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a",
          JsonCodec.encode(managedNs("team-a")))).get();
      for (int n = 0; n < 3; n++) {
        producer.send(record(topics, new NodeSnapshot("n" + n, 16000, "linux", false, Map.of())))
            .get();
        producer.send(record(topics, pod("team-a", "p" + n, "n" + n, 100, 0))).get();
      }
      runner = TopologyRunner.start(options, TopologySettings.defaults(topics), failOnce);

      // when: the first stream thread fails and is replaced
      await().atMost(Duration.ofSeconds(60)).until(() -> runner.streams().metadataForLocalThreads()
          .stream().map(ThreadMetadata::threadName)
          .anyMatch(name -> name.endsWith("-StreamThread-2")));

      // then: the dead thread's member is gone well before its session would expire
      try (Admin admin = broker.admin()) {
        await().atMost(SESSION_TIMEOUT.dividedBy(2)).until(() -> admin
            .describeConsumerGroups(List.of(options.applicationId())).all().get()
            .get(options.applicationId()).members().stream()
            .noneMatch(m -> m.clientId().endsWith("-StreamThread-1-consumer")));
      }
      // and the new thread decides a pod sent now
      String marker = "after-replacement";
      producer.send(record(topics, pod("team-a", marker, "n1", 100, 0))).get();
      long sent = System.nanoTime();
      boolean decided = false;
      try (KafkaConsumer<String, NodeDecision> consumer = committedDecisions(broker.bootstrapServers(), "replace-reader")) {
        consumer.subscribe(List.of(topics.decisions()));
        while (!decided && runner.failure().isEmpty()
            && System.nanoTime() - sent < Duration.ofSeconds(60).toNanos()) {
          for (var r : consumer.poll(Duration.ofMillis(500))) {
            for (PodChange c : r.value().changes()) {
              decided |= c.name().equals(marker);
            }
          }
        }
      }
      assertThat(runner.failure()).as("the replacement stopped the topology").isEmpty();
      assertThat(decided).as("a decision by the new thread").isTrue();
    }
  }

  private static KafkaProducer<String, byte[]> producer(String servers) {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), new ByteArraySerializer());
  }
}
