package dev.kubeheadroom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The buffer that holds records while Kafka is down is bounded in bytes as well as in records: a
 * long outage in a cluster of large pods must end in a re-publish, not in the stage's heap filling
 * up (its container's memory limit is what the orchestrator kills it at).
 */
class KafkaSinkBufferTest {
  @Test
  void recordsPastTheByteBoundAreRefusedAndCountedAsAnOverflow() {
    // given a sink whose Kafka never answers (nothing listens on port 9), holding at most 1 MB
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
    IngestSettings settings = IngestSettings.defaults(
        new KafkaClientSettings("127.0.0.1:9", Map.of("reconnect.backoff.ms", "1000")), "ingest-a");
    try (KafkaSink sink = new KafkaSink(settings, metrics, reason -> { }, 1L << 20)) {
      sink.open(0); // unfenced: this test is about the buffer
      sink.republishBegins();
      byte[] pod = new byte[100_000]; // a large pod: a few hundred containers, long env lists

      // when twelve such records arrive, far fewer than the 200 000 records the record bound allows
      int accepted = 0;
      for (int i = 0; i < 12; i++) {
        accepted += sink.offer("headroom.pods", "node-1", pod) ? 1 : 0;
      }

      // then only those fitting in 1 MB were queued, and the rest counted as an overflow
      assertThat(accepted).isEqualTo(10);
      assertThat(sink.buffered()).isEqualTo(10);
      assertThat(registry.get(IngestMetrics.OVERFLOWS).counter().count()).isEqualTo(2);
    }
  }

  @Test
  void anEmptyBufferTakesARecordLargerThanTheBound() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
    try (KafkaSink sink = new KafkaSink(IngestSettings.defaults(KafkaClientSettings.of("127.0.0.1:9"), "ingest-a"), metrics, reason -> { },
        1_000)) {
      sink.open(0); // unfenced: this test is about the buffer
      sink.republishBegins();
      // (the bound is on what accumulates: one record larger than it still goes, or it never would)
      assertThat(sink.offer("headroom.pods", "node-1", new byte[5_000])).isTrue();
      assertThat(sink.offer("headroom.pods", "node-1", new byte[10])).isFalse();
    }
  }
}
