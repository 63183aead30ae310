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
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka down for longer than the topology's client timeouts ({@code max.block.ms},
 * {@code task.timeout.ms}: 60 s and 5 min in production, seconds here), then back on the same
 * directory and port: the topology stays up and decides again, without a process restart.
 */
class KafkaOutageTopologyTest {
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
  void theTopologyDecidesAgainOnceKafkaIsBackAfterAnOutageLongerThanItsTimeouts() throws Exception {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir));
    int port = broker.port();
    Topics topics = new Topics("hr.");
    try (Admin admin = broker.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(3), Duration.ofSeconds(30));
    }
    // Client timeouts well below the 10 s outage, as production's (60 s max.block.ms, 120 s
    // delivery.timeout.ms, 5 min task.timeout.ms) were below its 6 minutes. Before the fix this
    // failed as production did: the abort timed out, the producer refused the next
    // beginTransaction, the thread failed and the client shut down (DESIGN.md, "Kafka outages").
    TopologyRunner.Options options = new TopologyRunner.Options("outage-app",
        new KafkaClientSettings(broker.bootstrapServers(), Map.of(
            "commit.interval.ms", "100",
            "max.block.ms", "2000",
            // A stream thread's flush waits this long for its records (120 s by default).
            "delivery.timeout.ms", "2500",
            "request.timeout.ms", "2000",
            "default.api.timeout.ms", "3000",
            "task.timeout.ms", "2000",
            // A thread lost in the outage may not have left the group: its member expires sooner.
            "session.timeout.ms", "6000")), stateDir);
    TopologySettings settings = TopologySettings.defaults(topics);

    AtomicBoolean feeding = new AtomicBoolean(true);
    try (KafkaProducer<String, byte[]> producer = producer(broker.bootstrapServers())) {
      sendUntilTaken(producer, new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      sendUntilTaken(producer, new ProducerRecord<>(topics.namespaces(), "team-a",
          JsonCodec.encode(managedNs("team-a"))));
      for (int n = 0; n < 6; n++) {
        sendUntilTaken(producer,
            record(topics, new NodeSnapshot("n" + n, 16000, "linux", false, Map.of())));
      }
      runner = TopologyRunner.start(options, settings, TopologyListener.NONE);
      assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();

      // Traffic throughout, so transactions are open when the broker goes.
      Thread feeder = new Thread(() -> {
        for (int i = 0; feeding.get(); i++) {
          try {
            producer.send(record(topics, pod("team-a", "p" + i, "n" + (i % 6), 100, 0)));
            Thread.sleep(10);
          } catch (RuntimeException | InterruptedException e) {
            // the broker is down: keep trying
          }
        }
      });
      feeder.start();
      Thread.sleep(2000);

      // when: the broker is away for longer than every client timeout, then back
      broker.close();
      Thread.sleep(10_000);
      broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir).withPort(port));
      feeding.set(false);
      feeder.join();

      // then: the same topology, never stopped, decides a pod sent after the outage
      long back = System.nanoTime();
      String marker = "after-outage";
      // (the restarted broker answers before its controller has it leading the partitions again)
      sendUntilTaken(producer, record(topics, pod("team-a", marker, "n1", 100, 0)));
      boolean decided = false;
      try (KafkaConsumer<String, NodeDecision> consumer = committedDecisions(broker.bootstrapServers(), "outage-reader")) {
        consumer.subscribe(List.of(topics.decisions()));
        while (!decided && runner.failure().isEmpty()
            && System.nanoTime() - back < Duration.ofSeconds(40).toNanos()) {
          for (var r : consumer.poll(Duration.ofMillis(500))) {
            for (PodChange c : r.value().changes()) {
              decided |= c.name().equals(marker);
            }
          }
        }
      }
      assertThat(runner.failure()).as("the outage stopped the topology").isEmpty();
      assertThat(decided).as("a decision for a pod sent after the outage, within 40 s").isTrue();
    }
  }

  /**
   * Sends until the broker has it: the producer's 500 ms metadata wait can run out (a loaded
   * machine, a broker just restarted), and a lost setup record, the namespace, left nothing
   * managed to decide: the topology ran and never decided.
   */
  private static void sendUntilTaken(KafkaProducer<String, byte[]> producer,
      ProducerRecord<String, byte[]> record) {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> producer.send(record).get() != null);
  }

  private static KafkaProducer<String, byte[]> producer(String servers) {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 500, ProducerConfig.LINGER_MS_CONFIG, 0),
        new StringSerializer(), new ByteArraySerializer());
  }
}
