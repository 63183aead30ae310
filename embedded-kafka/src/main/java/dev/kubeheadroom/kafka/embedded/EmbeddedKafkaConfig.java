package dev.kubeheadroom.kafka.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How to run the embedded broker.
 *
 * @param dataDir where the broker keeps its logs and metadata; created if absent, reused (same
 *     cluster id, same records) on the next start
 * @param port the client port on 127.0.0.1 (PLAINTEXT, or SASL_SSL with {@link #sasl}); {@code 0} picks a free one
 * @param brokerOverrides extra or replacement broker properties (for example {@code
 *     log.retention.hours}); applied last, so they win over the defaults in {@link
 *     EmbeddedKafka#brokerProperties}. Listener and quorum settings are owned by {@link
 *     EmbeddedKafka} and should not be overridden.
 * @param quietLogs when true (the default), Kafka's server-side loggers are set to WARN for
 *     slf4j-simple unless the user already configured them; see {@link EmbeddedKafka#quietLogs()}
 * @param sasl null for a plaintext broker that lets every client do anything (the default);
 *     otherwise SASL logins and ACLs, see {@link SaslUsers}
 */
public record EmbeddedKafkaConfig(
    Path dataDir, int port, Map<String, String> brokerOverrides, boolean quietLogs, SaslUsers sasl) {

  /** Port value that means "pick a free port". */
  public static final int EPHEMERAL_PORT = 0;

  public EmbeddedKafkaConfig {
    Objects.requireNonNull(dataDir, "dataDir");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0 (ephemeral) or 1..65535, got " + port);
    }
    brokerOverrides = Map.copyOf(brokerOverrides);
  }

  public EmbeddedKafkaConfig(Path dataDir, int port, Map<String, String> brokerOverrides, boolean quietLogs) {
    this(dataDir, port, brokerOverrides, quietLogs, null);
  }

  /** A broker on a free port with default settings and quiet logs. */
  public static EmbeddedKafkaConfig ephemeral(Path dataDir) {
    return new EmbeddedKafkaConfig(dataDir, EPHEMERAL_PORT, Map.of(), true);
  }

  public EmbeddedKafkaConfig withPort(int value) {
    return new EmbeddedKafkaConfig(dataDir, value, brokerOverrides, quietLogs, sasl);
  }

  public EmbeddedKafkaConfig withBrokerProperty(String key, String value) {
    Map<String, String> merged = new TreeMap<>(brokerOverrides);
    merged.put(key, value);
    return new EmbeddedKafkaConfig(dataDir, port, merged, quietLogs, sasl);
  }

  public EmbeddedKafkaConfig withQuietLogs(boolean value) {
    return new EmbeddedKafkaConfig(dataDir, port, brokerOverrides, value, sasl);
  }

  /** A secured broker: these users log in with SCRAM-SHA-512 over SASL_SSL and may do what ACLs grant them. */
  public EmbeddedKafkaConfig withSasl(SaslUsers users) {
    return new EmbeddedKafkaConfig(dataDir, port, brokerOverrides, quietLogs, users);
  }
}
