package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
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
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code audit} and {@code explain} against a history a real exactly-once topology wrote on a real
 * broker: the replay re-derives what the live run decided.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditCommandTest {
  @TempDir static Path stateDir;
  Topics topics;
  String bootstrap;
  Instant afterFirstDecision;

  static PodSnapshot pod(String name, long requestMilli, long limitMilli) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli,
        limitMilli, false, false)), ResizeStatus.NONE);
  }

  @BeforeAll
  void recordAHistory(KafkaBroker kafka) throws Exception {
    bootstrap = kafka.bootstrapServers();
    topics = new Topics(TestKafka.uniqueName("audit") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(TestKafka.uniqueName("app"),
        new KafkaClientSettings(bootstrap, Map.of("commit.interval.ms", "100")), stateDir), TopologySettings.defaults(topics),
        TopologyListener.NONE);
    try (runner; KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
      p.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(new NamespaceInfo("team-a",
          Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      for (NodeEvent e : List.<NodeEvent>of(new NodeSnapshot("n1", 16000, "linux", false, Map.of()),
          pod("web-1", 2000, 0), pod("web-2", 6000, 0))) {
        String topic = e instanceof NodeSnapshot ? topics.nodes() : topics.pods();
        p.send(new ProducerRecord<>(topic, e.node(), JsonCodec.encode(e)));
      }
      p.flush();
      kafka.consumeUntil(topics.decisions(), new StringDeserializer(),
          HeadroomSerdes.decisions().deserializer(), rs -> !rs.isEmpty(), Duration.ofSeconds(60));
      afterFirstDecision = Instant.now();
      // The simulated actuator's confirmation: web-1 now carries its new limit.
      p.send(new ProducerRecord<>(topics.pods(), "n1", JsonCodec.encode(pod("web-1", 2000, 4000)))).get();
    }
  }

  private CliRun cli(String... args) {
    return CliRun.onKafka(bootstrap, topics.prefix(), args);
  }

  @Test
  void explainShowsWhoBookedTheNodeAndTheArithmetic() {
    // (--full-replay: the history straddles a checkpoint boundary whenever the test runs across a
    // multiple of 10 minutes, and a replay from that checkpoint knows no decision before it)
    CliRun r = cli("explain", "team-a/web-1", "--full-replay");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    // n1: 16 cores, web-1 2 + web-2 6 booked: slack 8, M 8, F 2.00; web-1 → 2 + 2 = 4 cores.
    assertThat(r.stdout())
        .contains("Pod team-a/web-1 on node n1")
        .contains("current limit: 4 (request 2)")
        .contains("team-a/web-2", "6  managed")
        .contains("slack S = allocatable − Σ requests = 8")
        .contains("factor F = 1 + S/M = 2.00")
        .contains("target (quantized to 10m) = 4")
        .contains("deadband: target equals the current limit")
        .contains("Last decision").contains("→ 4 (set, node factor 2.00)");
  }

  @Test
  void auditAtAnEarlierMomentShowsTheLimitInForceThen() {
    CliRun r = cli("audit", "--at", afterFirstDecision.minusMillis(1).toString(), "--pod", "team-a/web-1",
        "--full-replay");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    // Then the target had been sent but the pod had not confirmed it yet.
    assertThat(r.stdout()).contains("current limit: none (request 2)")
        .containsPattern("in flight: target 4 at \\S+, not yet confirmed by the pod");
  }

  @Test
  void verifyReDerivesEveryRecordedDecisionFromItsInputs() {
    CliRun r = cli("audit", "--verify", "--from", "2020-01-01T00:00:00Z", "--to", Instant.now().toString());
    assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).containsPattern("[1-9]\\d* decisions in .* re-derived: 0 differ");
  }

  @Test
  void explainAsJsonCarriesTheSameNumbersAsTheText() throws Exception {
    CliRun r = cli("explain", "team-a/web-1", "-o", "json", "--full-replay");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    com.fasterxml.jackson.databind.JsonNode pod = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.stdout());
    assertThat(pod.get("node").asText()).isEqualTo("n1");
    assertThat(pod.get("limitMilli").asLong()).isEqualTo(4000);
    assertThat(pod.get("requestMilli").asLong()).isEqualTo(2000);
    assertThat(pod.get("slackMilli").asLong()).isEqualTo(8000);
    assertThat(pod.get("factor").asDouble()).isEqualTo(2.0);
    assertThat(pod.get("targetMilli").asLong()).isEqualTo(4000);
    assertThat(pod.get("reason").asText()).isEqualTo("unchanged");
    assertThat(pod.get("bookers")).hasSize(2);
    assertThat(pod.get("lastDecision").get("targetMilli").asLong()).isEqualTo(4000);
    // No --progress and no console: stderr stays free for errors.
    assertThat(r.stderr()).doesNotContain("%");
  }

  @Test
  void verifyAsYamlWithProgressInPercentOnStderr() throws Exception {
    CliRun r = cli("audit", "--verify", "--from", "2020-01-01T00:00:00Z", "--to", Instant.now().toString(),
        "-o", "yaml", "--progress");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper(
        new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(r.stdout());
    assertThat(report.get("checked").asLong()).isPositive();
    assertThat(report.get("differing").asLong()).isZero();
    assertThat(report.get("differences")).isEmpty();
    assertThat(r.stderr().lines()).last().isEqualTo("headroom audit: 100%");
  }

  @Test
  void aMomentBeforeTheRetainedHistoryIsAClearError() {
    CliRun r = cli("audit", "--at", "2020-01-01T00:00:00Z", "--pod", "team-a/web-1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().strip()).startsWith("headroom audit: 2020-01-01T00:00:00Z is before the retained history");
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void anUnknownPodIsAClearError() {
    CliRun r = cli("explain", "team-a/nope");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains("pod team-a/nope was not on any node");
  }
}
