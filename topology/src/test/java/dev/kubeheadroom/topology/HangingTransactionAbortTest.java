package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.testkit.Tar;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hanging transaction of a fault-suite run, on the broker's own data (captured while the
 * topology sat in {@code REBALANCING} after a graceful broker stop: docs/reliability.md, finding
 * 10; index files left out, the broker rebuilds them): the topology's commit completed by its
 * coordinator ({@code Empty} now) with no marker on any of its partitions, five changelog
 * partitions and {@code __consumer_offsets-4} held below their high watermarks. {@link
 * HangingTransactions} aborts exactly those, the stable offsets catch up, and the group's
 * committed offsets can be read stable again (what the restarted topology waited for).
 */
class HangingTransactionAbortTest {
  private static final String APPLICATION_ID = "headroom.topology";
  @TempDir Path dataDir;

  @TempDir Path stateDir;

  /** The captured broker, started on its data. */
  private EmbeddedKafka brokerOnTheCapture() throws IOException {
    try (InputStream fixture = getClass().getResourceAsStream("/hanging-transaction/kraft-logs.tar.gz")) {
      untar(new GZIPInputStream(fixture), dataDir);
    }
    // the fixture's transactional id stays listed however old it gets
    return EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir)
        .withBrokerProperty("transaction.remove.expired.transaction.cleanup.interval.ms", Integer.toString(Integer.MAX_VALUE)));
  }

  /**
   * The topology started on that broker, as the fault run's restarts were: without the abort its
   * restore stops at the open records and it never leaves {@code REBALANCING} (the run: 6 minutes,
   * three clients); with it, it runs.
   */
  @Test
  void theTopologyStartedOnThatBrokerRuns() throws Exception {
    try (EmbeddedKafka kafka = brokerOnTheCapture(); Admin admin = kafka.admin()) {
      assertThat(held(admin)).hasSize(6);
      TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(APPLICATION_ID,
          dev.kubeheadroom.schemas.KafkaClientSettings.of(kafka.bootstrapServers()), stateDir),
          TopologySettings.defaults(new dev.kubeheadroom.schemas.Topics("headroom.")), TopologyListener.NONE);
      try {
        assertThat(runner.awaitRunning(Duration.ofSeconds(90))).as("RUNNING, not " + runner.state()).isTrue();
        assertThat(held(admin)).isEmpty();
      } finally {
        runner.close();
      }
    }
  }

  @Test
  void theTransactionABrokersShutdownLeftOpenIsAbortedOnEveryPartitionAndTheReadersGoOn() throws Exception {
    try (EmbeddedKafka kafka = brokerOnTheCapture(); Admin admin = kafka.admin()) {
      assertThat(held(admin)).containsExactlyInAnyOrder(
          new TopicPartition("__consumer_offsets", 4),
          new TopicPartition("headroom.topology-headroom-checkpoint-cut-changelog", 0),
          new TopicPartition("headroom.topology-headroom-checkpoint-cut-changelog", 1),
          new TopicPartition("headroom.topology-headroom-pods-changelog", 0),
          new TopicPartition("headroom.topology-headroom-pods-changelog", 1),
          new TopicPartition("headroom.topology-headroom-pod-nodes-changelog", 1));
      HangingTransactions hanging = new HangingTransactions(admin, APPLICATION_ID, t -> t.startsWith("headroom."),
          Duration.ofSeconds(10), Duration.ofSeconds(30));

      assertThat(hanging.abortOwn()).isEqualTo(6);

      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(held(admin)).isEmpty());
      // what the restarted topology's consumer waited for: its group's offsets, stable
      assertThat(admin.listConsumerGroupOffsets(APPLICATION_ID, new ListConsumerGroupOffsetsOptions().requireStable(true))
          .partitionsToOffsetAndMetadata().get(30, java.util.concurrent.TimeUnit.SECONDS)).isNotEmpty();
      assertThat(hanging.abortOwn()).isZero();
    }
  }

  /** Partitions whose last stable offset is below their high watermark: an open transaction holds them. */
  private static List<TopicPartition> held(Admin admin) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (var d : admin.describeTopics(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
        .allTopicNames().get().values()) {
      d.partitions().forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
    }
    var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
    var high = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
    return latest.keySet().stream().filter(tp -> stable.get(tp).offset() < high.get(tp).offset()).toList();
  }

  /** The archive's files under {@code into}. */
  private static void untar(InputStream in, Path into) throws IOException {
    for (Map.Entry<String, byte[]> file : Tar.entries(in).entrySet()) {
      Path target = into.resolve(file.getKey()).normalize();
      if (!target.startsWith(into)) {
        throw new IOException("the fixture names a path outside its directory: " + file.getKey());
      }
      Files.createDirectories(target.getParent());
      Files.write(target, file.getValue());
    }
  }
}
