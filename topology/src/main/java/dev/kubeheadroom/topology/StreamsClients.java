package dev.kubeheadroom.topology;

import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The Kafka clients the topology's Streams client runs on: Kafka's own, as Streams' default
 * supplier builds them. {@code producers} wraps each stream thread's producer (a test's fault
 * injection; the identity in production).
 */
final class StreamsClients implements KafkaClientSupplier {
  private final UnaryOperator<Producer<byte[], byte[]>> producers;

  StreamsClients(UnaryOperator<Producer<byte[], byte[]>> producers) {
    this.producers = Objects.requireNonNull(producers, "producers");
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new CommitRetryingProducer(
        producers.apply(new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())));
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return getConsumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return getConsumer(config);
  }
}
