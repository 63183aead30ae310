package dev.kubeheadroom.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Micrometer's own binders for the JVM and the Kafka clients, bound the same way by every stage.
 *
 * <p>Each Kafka binder re-reads its client's metric list once a minute on a daemon thread of its
 * own and must be closed after the client (closing it stops that thread and removes its meters).
 * Kafka meters appear in the scrape as {@code kafka_producer_*}, {@code kafka_consumer_*},
 * {@code kafka_admin_client_*} and {@code kafka_stream_*}, tagged with {@code client_id}.
 */
public final class MeterBinders {
  private MeterBinders() {}

  /**
   * Binds JVM memory, GC, threads, class loading, processor (CPU), uptime and file descriptors.
   *
   * @return closes the GC binder's notification listeners; close it on shutdown
   */
  public static AutoCloseable bindJvm(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    return bound(registry, new JvmGcMetrics());
  }

  /** Binds a Kafka Streams instance's metrics (including its embedded clients'). */
  public static KafkaStreamsMetrics bindKafkaStreams(MeterRegistry registry, KafkaStreams streams) {
    return bound(registry, new KafkaStreamsMetrics(streams));
  }

  /** Binds a producer's metrics ({@code kafka_producer_*}). */
  public static KafkaClientMetrics bindProducer(MeterRegistry registry, Producer<?, ?> producer) {
    return bound(registry, new KafkaClientMetrics(producer));
  }

  /** Binds a consumer's metrics ({@code kafka_consumer_*}). */
  public static KafkaClientMetrics bindConsumer(MeterRegistry registry, Consumer<?, ?> consumer) {
    return bound(registry, new KafkaClientMetrics(consumer));
  }

  /** Binds an admin client's metrics ({@code kafka_admin_client_*}). */
  public static KafkaClientMetrics bindAdmin(MeterRegistry registry, AdminClient admin) {
    return bound(registry, new KafkaClientMetrics(admin));
  }

  private static <B extends MeterBinder> B bound(MeterRegistry registry, B binder) {
    binder.bindTo(registry);
    return binder;
  }
}
