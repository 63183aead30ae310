package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binding needs no broker: the clients are created against a port nothing listens on. */
class MeterBindersTest {
  private static final String NO_BROKER = "127.0.0.1:1";

  private final PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();

  @Test
  void jvmBindersYieldMemoryGcThreadClassProcessorAndUptimeMeters() throws Exception {
    AutoCloseable jvm = MeterBinders.bindJvm(registry);
    try {
      Scrape scrape = Scrape.parse(registry.scrape());

      assertThat(scrape.types().keySet())
          .contains(
              "jvm_memory_used_bytes",
              "jvm_threads_live_threads",
              "jvm_classes_loaded_classes",
              "process_cpu_usage",
              "process_uptime_seconds",
              "jvm_gc_max_data_size_bytes");
    } finally {
      jvm.close();
    }
  }

  @Test
  void bindingAProducerWithoutABrokerYieldsKafkaProducerMeters() {
    Map<String, Object> config = Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, NO_BROKER,
        ProducerConfig.CLIENT_ID_CONFIG, "test-producer",
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 100);
    try (var producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        KafkaClientMetrics binder = MeterBinders.bindProducer(registry, producer)) {
      assertThat(binder).isNotNull();
      Scrape scrape = Scrape.parse(registry.scrape());

      assertThat(scrape.samples())
          .filteredOn(s -> s.name().startsWith("kafka_producer_"))
          .isNotEmpty()
          .anySatisfy(s -> assertThat(s.labels()).containsEntry("client_id", "test-producer"));
      producer.close(Duration.ZERO);
    }
  }

  @Test
  void bindingAConsumerWithoutABrokerYieldsKafkaConsumerMeters() {
    Map<String, Object> config = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, NO_BROKER,
        ConsumerConfig.CLIENT_ID_CONFIG, "test-consumer",
        ConsumerConfig.GROUP_ID_CONFIG, "test-group");
    try (var consumer =
            new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
        KafkaClientMetrics binder = MeterBinders.bindConsumer(registry, consumer)) {
      assertThat(binder).isNotNull();
      assertThat(Scrape.parse(registry.scrape()).samples())
          .filteredOn(s -> s.name().startsWith("kafka_consumer_"))
          .isNotEmpty();
    }
  }

  @Test
  void bindingAnUnstartedKafkaStreamsYieldsKafkaStreamMeters(@TempDir Path stateDir) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("in").to("out");
    Map<String, Object> config = Map.of(
        StreamsConfig.APPLICATION_ID_CONFIG, "ops-binders-test",
        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, NO_BROKER,
        StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    KafkaStreams streams = new KafkaStreams(builder.build(), new StreamsConfig(config));
    try (KafkaStreamsMetrics binder = MeterBinders.bindKafkaStreams(registry, streams)) {
      assertThat(binder).isNotNull();
      assertThat(Scrape.parse(registry.scrape()).samples())
          .filteredOn(s -> s.name().startsWith("kafka_stream_"))
          .isNotEmpty();
    } finally {
      streams.close(Duration.ZERO);
    }
  }
}
