package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.hasSnapshotOf;
import static dev.kubeheadroom.ingest.IngestHarness.snapshotsOf;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.testkit.KafkaBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka down and back (a dedicated broker, restarted on the same directory and port): nothing is
 * lost silently. Records that fit the buffer are delivered when the broker returns; an overflow
 * ends in a full re-publish plus node sync.
 */
class KafkaOutageTest {
  @TempDir Path dataDir;
  private EmbeddedKafka broker;
  private int port;
  private IngestHarness harness;

  @BeforeEach
  void start() {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir));
    port = broker.port();
    String servers = broker.bootstrapServers();
    harness = new IngestHarness(new KafkaBroker() {
      @Override
      public String bootstrapServers() {
        return servers;
      }

      @Override
      public String description() {
        return "dedicated embedded broker " + servers;
      }
    });
  }

  @AfterEach
  void stop() {
    harness.close();
    broker.close();
  }

  @Test
  void changesMadeWhileKafkaIsDownAreDeliveredOnceItIsBack() {
    Ingest ingest = harness.start("ingest-a");
    harness.seed(pod("team-a", "before", "node-1", "100m", "1"));
    harness.podsUntil(hasSnapshotOf("before"));

    // when: the broker stops, a pod arrives, the broker comes back
    broker.close();
    harness.seed(pod("team-a", "during", "node-1", "100m", "1"));
    await().until(() -> harness.counter(ingest, IngestMetrics.PUBLISHED, "record", "pod") >= 2);
    assertThat(harness.registry(ingest).get(IngestMetrics.BUFFERED).gauge().value()).isPositive();
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir).withPort(port));

    // then: delivered, once, with nothing dropped
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(hasSnapshotOf("during"));
    assertThat(snapshotsOf(records, "during")).hasSize(1);
    assertThat(harness.counter(ingest, IngestMetrics.OVERFLOWS)).isZero();
    await().until(() -> harness.registry(ingest).get(IngestMetrics.BUFFERED).gauge().value() == 0);
  }

  @Test
  void overflowWhileKafkaIsDownEndsInAFullRepublishAndNodeSyncOnceItIsBack() {
    Ingest ingest = harness.start("ingest-a", s -> s.with(b -> b.bufferCapacity = 3));

    // when: more changes than the buffer holds arrive while the broker is down
    broker.close();
    IntStream.range(0, 8).forEach(i -> harness.seed(pod("team-a", "p" + i, "node-1", "100m", "1")));
    await().until(() -> harness.counter(ingest, IngestMetrics.OVERFLOWS) >= 1);
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir).withPort(port));

    // then: every pod is published after all, followed by a node sync listing all eight
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(r -> r.stream()
        .anyMatch(x -> x.value() instanceof NodeSync s && s.podUids().size() == 8));
    for (int i = 0; i < 8; i++) {
      assertThat(snapshotsOf(records, "p" + i)).as("p" + i).isNotEmpty();
    }
    // (counted once the re-publish is done, a moment after its last record was sent)
    await().untilAsserted(() ->
        assertThat(harness.counter(ingest, IngestMetrics.RESYNCS, "reason", "overflow")).isEqualTo(1));
  }
}
