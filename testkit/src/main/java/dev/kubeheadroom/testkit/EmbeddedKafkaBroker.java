package dev.kubeheadroom.testkit;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The in-JVM KRaft broker in a temporary directory that is deleted on {@link #close()}. */
public final class EmbeddedKafkaBroker implements KafkaBroker, AutoCloseable {

  private final Path dataDir;
  private final EmbeddedKafka kafka;

  private EmbeddedKafkaBroker(Path dataDir, EmbeddedKafka kafka) {
    this.dataDir = dataDir;
    this.kafka = kafka;
  }

  /** Starts a fresh broker on free ports in a new temporary directory. */
  public static EmbeddedKafkaBroker start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("headroom-test-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for Kafka", e);
    }
    try {
      return new EmbeddedKafkaBroker(dir, EmbeddedKafka.start(dir));
    } catch (RuntimeException e) {
      deleteRecursively(dir);
      throw e;
    }
  }

  @Override
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  @Override
  public String description() {
    return "embedded KRaft broker " + bootstrapServers() + " (" + dataDir + ")";
  }

  /** The underlying broker, for tests of start-up and restart behaviour. */
  public EmbeddedKafka embedded() {
    return kafka;
  }

  @Override
  public void close() {
    try {
      kafka.close();
    } finally {
      deleteRecursively(dataDir);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temporary directory is not worth failing a test run for
    }
  }
}
