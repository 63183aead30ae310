/**
 * An in-JVM, single-node Kafka broker (KRaft, combined broker and controller) for {@code ./headroom
 * run}, {@code headroom demo} and tests (not in the operator image); its building blocks are public
 * for testkit's {@code EmbeddedKafkaCluster}, several such nodes as one replicated cluster.
 *
 * <p>{@link dev.kubeheadroom.kafka.embedded.EmbeddedKafka} owns the broker's lifecycle and its data
 * directory; {@code dev.kubeheadroom.schemas.TopicReadiness} creates topics against any broker and
 * waits until every partition has a leader that serves requests. The broker listens on 127.0.0.1
 * only. What works here and why each setting exists: {@code docs/design/testing.md}, "A real
 * Kafka broker without Docker".
 */
package dev.kubeheadroom.kafka.embedded;
