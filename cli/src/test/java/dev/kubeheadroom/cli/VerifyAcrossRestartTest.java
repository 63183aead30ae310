package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real exactly-once topology restarted inside a checkpoint interval, on a real broker, after it
 * read node n1's events against their record-time order: a refusal of pod a (minute 4) before
 * n1's new allocatable (minute 3), which ends the refusal episode. The live booking at minute 10
 * holds no refusal; folded by record time it would hold one. The instance that writes the
 * minute-10 checkpoint is not the one that read those events (a fresh state directory: its
 * stores come back from the changelogs), yet the checkpoint carries the whole interval's read
 * order, so {@code audit --verify} re-derives it byte for byte and reports no difference; the
 * same checkpoint without its order (as one written before format 5) is reported as not verifiable
 * exactly, not as a divergence; a booking the log does not give still differs.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VerifyAcrossRestartTest {
  @TempDir static Path stateDir;
  Topics topics;
  String bootstrap;
  String applicationId;
  TopologyRunner runner;
  /** A checkpoint boundary, an hour ago. */
  Instant t0 = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.HOURS);
  ConsumerRecord<String, byte[]> stored;

  @BeforeAll
  void readAgainstTimeThenRestartWithinTheInterval(KafkaBroker kafka) throws Exception {
    bootstrap = kafka.bootstrapServers();
    topics = new Topics(TestKafka.uniqueName("restart") + ".");
    applicationId = TestKafka.uniqueName("app");
    try (Admin admin = kafka.admin();
        KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(1), Duration.ofSeconds(30));
      p.send(new ProducerRecord<>(topics.config(), null, t0.toEpochMilli(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(topics.namespaces(), null, t0.toEpochMilli(), "team-a", JsonCodec.encode(
          new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      runner = start("before");
      // each event read (and committed) before the next is sent: the read order is the send order
      send(p, admin, topics.nodes(), new NodeSnapshot("n1", 8_000, "linux", false, Map.of()), 1);
      send(p, admin, topics.pods(), CheckpointAuditTest.pod("n1", "a", 200), 2);
      send(p, admin, topics.outcomes(), new ResizeOutcome("n1", "uid-a", "team-a", "a", OutcomeResult.CONFLICT,
          2_000, t0.plus(Duration.ofMinutes(4)), "the pod changed"), 4);
      send(p, admin, topics.nodes(), new NodeSnapshot("n1", 12_000, "linux", false, Map.of()), 3);
      runner.close();
      runner = start("after"); // another instance's directory: the stores come back from the changelogs
      send(p, admin, topics.pods(), CheckpointAuditTest.pod("n1", "c", 400), 11);
    }
    String key = NodeCheckpoint.key("n1", t0.plus(Duration.ofMinutes(10)));
    stored = kafka.consumeUntil(topics.checkpoints(), new StringDeserializer(), new ByteArrayDeserializer(),
        rs -> rs.stream().anyMatch(r -> r.key().equals(key)), Duration.ofSeconds(90))
        .stream().filter(r -> r.key().equals(key)).findFirst().orElseThrow();
  }

  private TopologyRunner start(String instance) throws InterruptedException {
    TopologyRunner started = TopologyRunner.start(new TopologyRunner.Options(applicationId,
        new KafkaClientSettings(bootstrap, Map.of("commit.interval.ms", "100")), stateDir.resolve(instance)),
        TopologySettings.defaults(topics), TopologyListener.NONE);
    assertThat(started.awaitRunning(Duration.ofSeconds(60))).isTrue();
    return started;
  }

  /** Sends {@code event} at {@code minute} past t0 to {@code topic}; returns once the topology has committed it. */
  private void send(KafkaProducer<String, byte[]> p, Admin admin, String topic, Object event, int minute)
      throws Exception {
    long offset = p.send(new ProducerRecord<>(topic, null, t0.plus(Duration.ofMinutes(minute)).toEpochMilli(), "n1",
        JsonCodec.encode(event))).get().offset();
    TopicPartition partition = new TopicPartition(topic, 0);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      OffsetAndMetadata committed = admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata()
          .get().get(partition);
      if (committed != null && committed.offset() > offset) {
        return;
      }
      assertThat(System.nanoTime()).as("%s offset %d committed by the topology", topic, offset).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  @AfterAll
  void stop() {
    if (runner != null) {
      runner.close();
    }
  }

  @Test
  @Order(1)
  void theCheckpointWrittenAfterTheRestartCarriesTheWholeIntervalsReadOrder() {
    NodeCheckpoint c = CheckpointCodec.decode(stored.value());
    assertThat(c.order()).containsExactly(new Run(topics.nodes(), 1), new Run(topics.pods(), 1),
        new Run(topics.outcomes(), 1), new Run(topics.nodes(), 1));
    assertThat(c.pods()).singleElement().satisfies(p -> assertThat(p.refusals()).as("the live booking").isZero());
  }

  @Test
  @Order(2)
  void verifyReportsNoDifferenceForAReadOrderFromBeforeTheRestart() {
    CliRun r = verify();
    assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).contains("1 checkpoints in").contains("re-derived from the log: 0 differ");
  }

  @Test
  @Order(3)
  void withoutItsReadOrderTheCheckpointIsNotVerifiableExactlyAndNoDivergence(KafkaBroker kafka) throws Exception {
    rewrite(kafka, CheckpointCodec.decode(stored.value()).withOrder(null)); // as a build before format 5 wrote it
    CliRun r = verify();
    assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).contains("re-derived from the log: 0 differ, 1 not verifiable exactly (read order not recorded)")
        .contains("checkpoint " + stored.key() + ": not verifiable exactly: read order not recorded");
  }

  @Test
  @Order(4)
  void aBookingTheLogDoesNotGiveStillDiffers(KafkaBroker kafka) throws Exception {
    NodeCheckpoint live = CheckpointCodec.decode(stored.value());
    CheckpointPod a = live.pods().get(0);
    rewrite(kafka, new NodeCheckpoint(live.node(), live.at(), live.snapshot(),
        List.of(new CheckpointPod(a.pod(), a.backoffSince(), a.infeasibleSeen(), a.refusals() + 1)), live.cut(),
        live.order()));
    CliRun r = verify();
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stdout()).contains("re-derived from the log: 1 differ")
        .contains("checkpoint " + stored.key() + ": the stored booking differs from the one the log re-derives");
  }

  /** Writes {@code checkpoint} over the stored one (the later record of a key is the one compared). */
  private void rewrite(KafkaBroker kafka, NodeCheckpoint checkpoint) throws Exception {
    try (KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topics.checkpoints(), stored.partition(), stored.timestamp(), stored.key(),
          CheckpointCodec.encode(checkpoint))).get();
    }
  }

  private CliRun verify() {
    return CliRun.onKafka(bootstrap, topics.prefix(), "audit", "--verify", "--from", t0.toString(),
        "--to", t0.plus(Duration.ofMinutes(10)).toString());
  }
}
