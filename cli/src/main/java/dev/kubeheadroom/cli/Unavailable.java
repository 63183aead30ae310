package dev.kubeheadroom.cli;

/** Kafka, the API server or Prometheus did not answer: one line, {@link ExitCodes#UNAVAILABLE}, no stack trace. */
public final class Unavailable extends RuntimeException {
  public Unavailable(String message) {
    super(message, null, false, false);
  }
}
