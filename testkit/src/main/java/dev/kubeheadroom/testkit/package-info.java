/**
 * A running Kafka broker for tests in every module (depend on {@code headroom-testkit} with {@code
 * test} scope).
 *
 * <p>{@link dev.kubeheadroom.testkit.KafkaBroker} is what a test talks to: the bootstrap address
 * plus helpers (topics that are ready for writes, producers and consumers with test settings,
 * {@code consumeUntil}). {@link dev.kubeheadroom.testkit.TestKafka#shared()} gives one broker per
 * JVM, started lazily and closed at JVM exit; {@link dev.kubeheadroom.testkit.WithKafka} injects it
 * as a JUnit parameter. By default the broker is the in-JVM KRaft broker of {@code embedded-kafka};
 * {@code -Dheadroom.test.kafka=container} uses a Testcontainers Kafka instead (skipped, not failed,
 * where Docker is missing). {@link dev.kubeheadroom.testkit.EmbeddedKafkaCluster} is several
 * such brokers as one replicated cluster, for tests that lose a broker.
 */
package dev.kubeheadroom.testkit;
