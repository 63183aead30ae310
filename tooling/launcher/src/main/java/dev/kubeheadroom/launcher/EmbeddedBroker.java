package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.LocalKafka;
import dev.kubeheadroom.cli.UserError;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./headroom}'s Kafka when a command is given no {@code --kafka-bootstrap-servers}: a
 * single-node broker in this process with its data under {@code --data-dir} (it survives
 * restarts), or, when another headroom process already runs one there, that one (so
 * {@code explain} works beside {@code run}). Not in the operator image.
 */
final class EmbeddedBroker implements LocalKafka {
  /** Where a running embedded broker leaves its address for other headroom commands. */
  static final String ADDRESS_FILE = "embedded-kafka.address";

  @Override
  public Broker open(Path dataDir) {
    Path address = dataDir.resolve(ADDRESS_FILE);
    EmbeddedKafka broker;
    try {
      broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir.resolve("kafka")));
    } catch (EmbeddedKafkaException e) {
      if (Files.isReadable(address)) {
        try {
          return new Broker(Files.readString(address).strip(), null);
        } catch (IOException ignored) {
          // fall through to the broker's own message
        }
      }
      throw new UserError("embedded Kafka: " + e.getMessage());
    }
    try {
      Files.writeString(address, broker.bootstrapServers());
    } catch (IOException e) {
      broker.close();
      throw new UserError("--data-dir " + dataDir + ": " + e.getMessage());
    }
    return new Broker(broker.bootstrapServers(), () -> {
      broker.close();
      // a stale address file only costs the next command one failed connection attempt
      Files.deleteIfExists(address);
    });
  }
}
