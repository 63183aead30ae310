package dev.kubeheadroom.topology;

import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
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
 * The Kafka clients the topology's Streams client runs on: Kafka's own, as Streams' default
 * supplier builds them, with two changes (DESIGN.md, "After a restart" and "Kafka outages"):
 *
 * <ul>
 *   <li>each stream thread's producer is a {@link CommitRetryingProducer}: a commit that times out
 *       is retried until Kafka answers, not turned into a revive whose stores miss what the
 *       changelogs hold. {@code producers} wraps the Kafka producer inside it (a test's fault
 *       injection; the identity in production);
 *   <li>a stream thread's group consumer (dynamic membership) leaves the group when it closes.
 *       Streams closes the consumer of a thread replaced after a failure ({@code REPLACE_THREAD})
 *       remaining in the group, so the rebalance for the new thread waited one more
 *       {@code session.timeout.ms} for a member that cannot come back under its id. A static member
 *       ({@code group.instance.id}) keeps Streams' choice: its id is meant to outlive a restart.
 * </ul>
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
