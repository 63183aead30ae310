package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decisions group's session timeout: the setting's, 10 s by default, unless the client properties set one. */
class SessionTimeoutSettingTest {
  private static final Topics TOPICS = Topics.defaults();

  @Test
  void theDefaultIsTenSecondsNotKafkasFortyFive() {
    Map<String, Object> consumer = ActuatorSettings.defaults(KafkaClientSettings.of("kafka:9092"), TOPICS)
        .decisionsConsumer();
    assertThat(consumer).containsEntry("session.timeout.ms", 10_000).containsEntry("heartbeat.interval.ms", 3_333);
  }

  @Test
  void theSettingSetsItAndItsHeartbeat() {
    Map<String, Object> consumer = ActuatorSettings.defaults(KafkaClientSettings.of("kafka:9092"), TOPICS)
        .with(b -> b.sessionTimeout = Duration.ofSeconds(6)).decisionsConsumer();
    assertThat(consumer).containsEntry("session.timeout.ms", 6_000).containsEntry("heartbeat.interval.ms", 2_000);
  }

  @Test
  void aSessionTimeoutAmongTheClientPropertiesWins() {
    Map<String, Object> consumer = ActuatorSettings.defaults(
            new KafkaClientSettings("kafka:9092", Map.of("session.timeout.ms", "30000")), TOPICS)
        .with(b -> b.sessionTimeout = Duration.ofSeconds(6)).decisionsConsumer();
    assertThat(consumer).containsEntry("session.timeout.ms", "30000").doesNotContainKey("heartbeat.interval.ms");
  }

  @Test
  void belowThreeMillisecondsIsRefused() {
    assertThatThrownBy(() -> ActuatorSettings.defaults(KafkaClientSettings.of("kafka:9092"), TOPICS)
        .with(b -> b.sessionTimeout = Duration.ofMillis(2))).isInstanceOf(IllegalArgumentException.class);
  }
}
