package dev.kubeheadroom.topology;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Kafka Streams' clients as its default supplier makes them, except that a stream thread's group
 * consumer (dynamic membership) leaves the group when it closes. Streams closes the consumer of a
 * thread replaced after a failure ({@code REPLACE_THREAD}: Kafka unreachable, DESIGN.md "Kafka
 * outages") remaining in the group, so the group's rebalance for the new thread waited one more
 * {@code session.timeout.ms} for the dead member after the old thread had let go of its tasks. A
 * dynamic member cannot come back under its member id, so remaining gains nothing. A static member
 * ({@code group.instance.id}) keeps Streams' choice: its id is meant to outlive a restart.
 */
final class LeavingClientSupplier implements KafkaClientSupplier {
  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    Object instanceId = config.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    if (instanceId != null && !instanceId.toString().isBlank()) {
      return plainConsumer(config);
    }
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()) {
      @Override
      public void close(CloseOptions options) {
        super.close(options.withGroupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP));
      }
    };
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return plainConsumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return plainConsumer(config);
  }

  private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
