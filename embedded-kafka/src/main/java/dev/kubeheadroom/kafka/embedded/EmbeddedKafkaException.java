package dev.kubeheadroom.kafka.embedded;

/**
 * The embedded broker could not start or its data directory cannot be used. The message is one
 * line meant for a human (it names the directory or port concerned); the cause, if any, is Kafka's.
 */
public final class EmbeddedKafkaException extends RuntimeException {

  public EmbeddedKafkaException(String message) {
    super(message);
  }

  public EmbeddedKafkaException(String message, Throwable cause) {
    super(message, cause);
  }
}
