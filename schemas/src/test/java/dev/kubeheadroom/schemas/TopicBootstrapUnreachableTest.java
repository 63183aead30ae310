package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/**
 * Kafka not answering is told apart from a layout Kafka refuses: {@link TopicBootstrap.KafkaUnreachable},
 * which a stage waits out (asking again), where a refused layout is the user's to fix.
 */
class TopicBootstrapUnreachableTest {
  private static Admin nowhere() {
    // port 1: nothing listens there, so every request times out (no broker ever answers)
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 500, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 1000,
        AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 100));
  }

  @Test
  void checkingTopicsWhileKafkaDoesNotAnswerIsUnreachableNotALayoutError() {
    try (Admin admin = nowhere()) {
      assertThatThrownBy(() -> TopicBootstrap.verify(admin, Topics.defaults(), Duration.ofSeconds(2)))
          .isInstanceOf(TopicBootstrap.KafkaUnreachable.class).hasMessageStartingWith("cannot check topics");
    }
  }

  @Test
  void settingUpTopicsWhileKafkaDoesNotAnswerIsUnreachableNotALayoutError() {
    try (Admin admin = nowhere()) {
      assertThatThrownBy(() -> TopicBootstrap.ensure(admin, Topics.defaults(), TopicLayout.singleBroker(1),
          Duration.ofSeconds(2)))
          .isInstanceOf(TopicBootstrap.KafkaUnreachable.class).hasMessageStartingWith("cannot set up topics");
    }
  }
}
