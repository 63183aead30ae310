package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The topology's failover timeouts reach the clients Kafka Streams builds from
 * {@link TopologyRunner#properties}: the session timeout the group's consumer, the transaction
 * timeout every producer (Streams' own exactly-once default, 10 s, would win otherwise).
 */
class FailoverTimeoutsTest {
  private static final Path STATE = Path.of("/tmp/unused-state");

  private static StreamsConfig config(KafkaClientSettings kafka, FailoverTimeouts timeouts) {
    return new StreamsConfig(TopologyRunner.properties(new TopologyRunner.Options("app", kafka, STATE, 0, "", timeouts),
        TopologySettings.defaults(Topics.defaults()), TopologyListener.NONE));
  }

  @Test
  void theDefaultsReachTheGroupConsumerAndTheProducer() {
    StreamsConfig config = config(KafkaClientSettings.of("k:9092"), FailoverTimeouts.DEFAULTS);

    assertThat(config.getMainConsumerConfigs("app", "c", 0))
        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000")
        .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3333");
    assertThat(config.getProducerConfigs("c")).containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "5000");
  }

  @Test
  void givenTimeoutsReachThem() {
    StreamsConfig config = config(KafkaClientSettings.of("k:9092"),
        new FailoverTimeouts(Duration.ofSeconds(6), Duration.ofMillis(2500)));

    assertThat(config.getMainConsumerConfigs("app", "c", 0))
        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000")
        .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "2000");
    assertThat(config.getProducerConfigs("c")).containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "2500");
  }

  // A prefixed default would beat the operator's plain client property in Streams' own
  // resolution (main.consumer. > consumer. > plain), so a client property in any form wins.
  @Test
  void clientPropertiesInAnyFormStillWin() {
    StreamsConfig plain = config(new KafkaClientSettings("k:9092", Map.of("session.timeout.ms", "4000",
        "heartbeat.interval.ms", "1000", "transaction.timeout.ms", "4000")), FailoverTimeouts.DEFAULTS);
    StreamsConfig prefixed = config(new KafkaClientSettings("k:9092", Map.of("consumer.session.timeout.ms", "7000",
        "producer.transaction.timeout.ms", "3000")), FailoverTimeouts.DEFAULTS);

    assertThat(plain.getMainConsumerConfigs("app", "c", 0))
        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "4000")
        .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
    assertThat(plain.getProducerConfigs("c")).containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "4000");
    assertThat(prefixed.getMainConsumerConfigs("app", "c", 0)).containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "7000");
    assertThat(prefixed.getProducerConfigs("c")).containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "3000");
  }

  // Kafka Streams refuses a transaction timeout below commit.interval.ms (100 ms under
  // exactly-once; StreamsConfig#verifyEOSTransactionTimeoutCompatibility): refused here first.
  @Test
  void aTransactionTimeoutBelowTheExactlyOnceCommitIntervalIsRefused() {
    assertThatThrownBy(() -> new FailoverTimeouts(Duration.ofSeconds(10), Duration.ofMillis(99)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("100 ms");
    assertThat(config(KafkaClientSettings.of("k:9092"), new FailoverTimeouts(Duration.ofSeconds(10), Duration.ofMillis(100)))
        .getProducerConfigs("c")).containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "100");
  }
}
