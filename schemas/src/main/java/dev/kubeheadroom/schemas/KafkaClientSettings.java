package dev.kubeheadroom.schemas;

import java.util.HashMap;
import java.util.Map;

/**
 * How every stage's Kafka clients reach Kafka: one record the launcher resolves once (flags, the
 * properties file, {@code HEADROOM_KAFKA_*}) and hands to each stage's settings.
 *
 * @param bootstrapServers Kafka {@code bootstrap.servers}
 * @param properties further client properties (SASL/SSL, tuning); each stage documents which of
 *     its own settings they may not override
 */
public record KafkaClientSettings(String bootstrapServers, Map<String, String> properties) {
  public KafkaClientSettings {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("bootstrapServers is required");
    }
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  /** Kafka at {@code bootstrapServers} with no further properties (a local or test broker). */
  public static KafkaClientSettings of(String bootstrapServers) {
    return new KafkaClientSettings(bootstrapServers, Map.of());
  }

  /** These settings with {@code more} properties added (they win). */
  public KafkaClientSettings with(Map<String, String> more) {
    Map<String, String> merged = new HashMap<>(properties);
    merged.putAll(more);
    return new KafkaClientSettings(bootstrapServers, merged);
  }

  /** {@code bootstrap.servers} plus the properties, for any Kafka client. */
  public Map<String, Object> clientConfig() {
    Map<String, Object> config = new HashMap<>(properties);
    config.put("bootstrap.servers", bootstrapServers);
    return config;
  }
}
