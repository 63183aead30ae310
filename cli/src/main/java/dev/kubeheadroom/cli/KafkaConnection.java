package dev.kubeheadroom.cli;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * A resolved Kafka: bootstrap servers, the client properties every client gets, and the embedded
 * broker this process runs, if any (closed last).
 */
record KafkaConnection(String bootstrapServers, Map<String, String> clientProperties,
    EmbeddedKafka embedded, java.nio.file.Path addressFile) implements AutoCloseable {

  KafkaConnection {
    clientProperties = Map.copyOf(clientProperties);
  }

  KafkaConnection(String bootstrapServers, Map<String, String> clientProperties, EmbeddedKafka embedded) {
    this(bootstrapServers, clientProperties, embedded, null);
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
    if (embedded != null) {
      embedded.close();
    }
    if (addressFile != null) {
      try {
        java.nio.file.Files.deleteIfExists(addressFile);
      } catch (java.io.IOException ignored) {
        // a stale address file only costs the next command one failed connection attempt
      }
    }
  }
}
