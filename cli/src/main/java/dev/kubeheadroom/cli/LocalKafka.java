package dev.kubeheadroom.cli;

import java.nio.file.Path;

/**
 * The Kafka a command uses when it is given no {@code --kafka-bootstrap-servers}. The operator
 * image has none ({@link #NONE}: the command says so in one line, exit 2); {@code ./headroom}
 * (module launcher) runs an embedded broker with its data under {@code --data-dir}, so that the
 * Kafka broker and Scala stay out of the image.
 */
@FunctionalInterface
public interface LocalKafka {
  /** The operator image's: no broker in this process. */
  LocalKafka NONE = dataDir -> {
    throw new UserError("no Kafka: give --kafka-bootstrap-servers (or HEADROOM_KAFKA_BOOTSTRAP_SERVERS); "
        + "the operator image has no embedded broker (./headroom runs one on a laptop)");
  };

  /**
   * A broker on this machine for the data under {@code dataDir}; a {@link UserError} when there
   * is none to be had.
   */
  Broker open(Path dataDir);

  /**
   * A local broker's address, and what to close when the command ends: the broker this process
   * started, or null when another process runs it (its topics then get the replication factor
   * asked for).
   */
  record Broker(String bootstrapServers, AutoCloseable startedHere) {}
}
