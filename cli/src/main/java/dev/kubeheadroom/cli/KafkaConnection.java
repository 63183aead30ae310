package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.LoggerFactory;

/**
 * A resolved Kafka: bootstrap servers, the client properties every client gets, and the embedded
 * broker this process runs, if any (closed last; see {@link LocalKafka}).
 */
record KafkaConnection(String bootstrapServers, Map<String, String> clientProperties, AutoCloseable embedded)
    implements AutoCloseable {

  KafkaConnection {
    clientProperties = Map.copyOf(clientProperties);
  }

  /** The settings every stage's Kafka clients start from. */
  KafkaClientSettings client() {
    return new KafkaClientSettings(bootstrapServers, clientProperties);
  }

  boolean isEmbedded() {
    return embedded != null;
  }

  /** Bootstrap servers plus the client properties, for any Kafka client. */
  Map<String, Object> clientConfig() {
    return client().clientConfig();
  }

  Admin admin() {
    return Admin.create(clientConfig());
  }

  @Override
  public void close() {
    if (embedded == null) {
      return;
    }
    try {
      embedded.close();
    } catch (Exception e) {
      LoggerFactory.getLogger(KafkaConnection.class).warn("Closing the embedded broker failed: {}", e.toString());
    }
  }
}
