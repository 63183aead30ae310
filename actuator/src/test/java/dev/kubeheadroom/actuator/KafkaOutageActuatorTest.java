package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.KafkaBroker;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka down for longer than the actuator's client timeouts, then back on the same directory and
 * port: the actuator stays up (its failure empty: the stage does not exit), reports not ready
 * while Kafka does not answer, and applies decisions again once it does, without a restart. The
 * fault suite's "Kafka down" row had it exit 1 (an outcome it could not write), then 2 at each
 * start while Kafka was still away.
 */
class KafkaOutageActuatorTest {
  @TempDir Path dataDir;
  private EmbeddedKafka broker;
  private ActuatorHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void theActuatorWaitsOutAKafkaOutageNotReadyAndAppliesAgainOnceKafkaIsBack() throws Exception {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir));
    int port = broker.port();
    String servers = broker.bootstrapServers();
    h = new ActuatorHarness(new KafkaBroker() {
      @Override
      public String bootstrapServers() {
        return servers;
      }

      @Override
      public String description() {
        return "embedded broker stopped and started again on port " + port;
      }
    });
    // Client timeouts well below the 10 s outage, as production's (120 s delivery.timeout.ms,
    // 60 s default.api.timeout.ms) are below a 6-minute one.
    ActuatorSettings settings = h.settings().with(b -> {
      b.sessionTimeout = Duration.ofSeconds(6);
      b.kafka = new KafkaClientSettings(servers, Map.of(
          "auto.offset.reset", "earliest",
          "delivery.timeout.ms", "3000",
          "request.timeout.ms", "2000",
          "default.api.timeout.ms", "3000",
          "max.block.ms", "2000"));
    });
    Pod before = h.pod("web-1", "n1", "app=750m/1500m");
    Pod second = h.pod("web-2", "n1", "app=750m/1500m");
    Actuator actuator = h.start(settings);
    h.produce(decision("n1", false, change(before.getMetadata().getUid(), NS, "web-1", 1500, 3000)));
    h.outcomesUntil(os -> os.stream().anyMatch(o -> o.name().equals("web-1")));

    // when: Kafka goes away for longer than every client timeout
    broker.close();
    await().atMost(Duration.ofSeconds(30)).until(() -> !actuator.ready());
    Thread.sleep(10_000);
    assertThat(actuator.failure()).as("the outage stopped the actuator").isEmpty();
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir).withPort(port));

    // then: the same actuator, never stopped, is ready again and applies a decision sent after it
    await().atMost(Duration.ofSeconds(60)).until(actuator::ready);
    h.produce(decision("n1", false, change(second.getMetadata().getUid(), NS, "web-2", 1500, 2500)));
    ResizeOutcome outcome = h.outcomesUntil(os -> os.stream().anyMatch(o -> o.name().equals("web-2"))).stream()
        .filter(o -> o.name().equals("web-2")).findFirst().orElseThrow();
    assertThat(outcome.result()).isEqualTo(OutcomeResult.APPLIED);
    assertThat(h.api.requests().count(RequestMatcher.resizeOf(NS, "web-2"))).isEqualTo(1);
    assertThat(actuator.failure()).isEmpty();
  }
}
