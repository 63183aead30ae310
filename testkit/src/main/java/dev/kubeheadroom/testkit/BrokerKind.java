package dev.kubeheadroom.testkit;

/** Which broker implementation a test gets. */
public enum BrokerKind {
  /** Whatever {@code -Dheadroom.test.kafka} says; {@link #EMBEDDED} when unset. */
  DEFAULT,
  /** The in-JVM KRaft broker of {@code embedded-kafka}: works everywhere, starts in about 2 s. */
  EMBEDDED,
  /** A Testcontainers Kafka; the test is skipped (JUnit assumption) where Docker is missing. */
  CONTAINER
}
