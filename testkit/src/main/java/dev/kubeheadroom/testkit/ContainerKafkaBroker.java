package dev.kubeheadroom.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka broker in a Docker container (Testcontainers). Where Docker is missing, {@link #start}
 * aborts the calling test with a JUnit assumption, so it is reported as skipped, not failed.
 */
public final class ContainerKafkaBroker implements KafkaBroker, AutoCloseable {

  /** System property naming the image; default {@code apache/kafka:<kafka-clients version>}. */
  public static final String IMAGE_PROPERTY = "headroom.test.kafka.image";

  private final KafkaContainer container;

  private ContainerKafkaBroker(KafkaContainer container) {
    this.container = container;
  }

  /** True if Testcontainers can reach a Docker engine. */
  public static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Starts a container, or aborts the current test (assumption) if there is no Docker. */
  public static ContainerKafkaBroker start() {
    Assumptions.assumeTrue(
        dockerAvailable(), "Docker is not available: skipping the Testcontainers Kafka variant");
    String image = System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + clientsVersion());
    KafkaContainer container = new KafkaContainer(DockerImageName.parse(image));
    container.start();
    return new ContainerKafkaBroker(container);
  }

  /** The kafka-clients version on the classpath, so the container matches the clients. */
  static String clientsVersion() {
    Properties props = new Properties();
    try (InputStream in =
        KafkaProducer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      // fall through to the default below
    }
    return props.getProperty("version", "latest");
  }

  @Override
  public String bootstrapServers() {
    return container.getBootstrapServers();
  }

  @Override
  public String description() {
    return "Testcontainers Kafka " + container.getDockerImageName() + " at " + bootstrapServers();
  }

  @Override
  public void close() {
    container.stop();
  }
}
