package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.node;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Records over Kafka's {@code max.request.size} (here a small one, 2 KiB, so the test stays
 * fast): a node sync is split into uid-range chunks that each fit, and a record that still does
 * not fit is counted and dead-lettered — never answered with a full re-publish, which would send
 * the same record again, forever.
 */
@WithKafka
class OversizedRecordsTest {
  static final int MAX_REQUEST = 2048;
  private IngestHarness harness;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private IngestSettings small(IngestSettings s) {
    return s.with(b -> b.kafka = s.kafka().with(Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_REQUEST))));
  }

  @Test
  void aNodeWhoseSyncExceedsTheRequestSizeIsSyncedInChunksThatCoverEveryPod() {
    // given a node with 60 pods: their uids alone (~2.3 KB) exceed the 2 KiB request size
    harness.api.seedClient().nodes().resource(node("node-1", "64")).create();
    TreeSet<String> uids = new TreeSet<>();
    for (int i = 0; i < 60; i++) {
      uids.add(harness.seed(pod("team-a", "p-" + i, "node-1", "10m", "1")).getMetadata().getUid());
    }

    // when ingest starts and syncs the node
    Ingest ingest = harness.start("ingest-a", this::small);
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(rs -> syncsOf(rs).stream()
        .anyMatch(s -> s.until() == null));

    // then the sync came in several chunks, each under the request size, covering every uid once
    List<NodeSync> chunks = syncsOf(records);
    assertThat(chunks).hasSizeGreaterThan(1);
    assertThat(chunks.get(0).from()).isNull();
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).from()).as("contiguous ranges").isEqualTo(chunks.get(i - 1).until());
    }
    assertThat(chunks).allSatisfy(c -> assertThat(JsonCodec.encode(c).length).isLessThan(MAX_REQUEST));
    assertThat(chunks.stream().flatMap(c -> c.podUids().stream()).toList())
        .containsExactlyElementsOf(uids);
    assertThat(harness.counter(ingest, IngestMetrics.DELIVERY_FAILURES)).isZero();
    assertThat(harness.counter(ingest, IngestMetrics.REFUSED, "reason", "too-large")).isZero();
  }

  @Test
  void aRecordKafkaRefusesAsTooLargeIsCountedAndDeadLetteredAndNeverRepublished(KafkaBroker kafka)
      {
    // given a sink whose producer takes at most 2 KiB per request
    List<String> resyncs = new CopyOnWriteArrayList<>();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
    IngestSettings settings = small(harness.settings("sink"));
    try (KafkaSink sink = new KafkaSink(settings, metrics, resyncs::add, KafkaSink.DEFAULT_BUFFER_BYTES)) {
      sink.open(0); // unfenced: this test is about sizes
      sink.republishBegins();
      await().atMost(IngestHarness.TIMEOUT).until(sink::reachable);

      // when a record of 20 KB is offered, then a small one
      byte[] big = new byte[20_000];
      java.util.Arrays.fill(big, (byte) 'x');
      sink.offer(harness.topics.pods(), "node-1", big);
      sink.offer(harness.topics.pods(), "node-1", JsonCodec.encode(new NodeSync("node-1", List.of())));

      // then it is dead-lettered, naming the topic and the refusal
      List<ConsumerRecord<String, DeadLetter>> letters = kafka.consumeUntil(harness.topics.deadLetter(),
          new StringDeserializer(), HeadroomSerdes.deadLetters(), rs -> !rs.isEmpty(), IngestHarness.TIMEOUT);
      assertThat(letters).singleElement().satisfies(r -> {
        assertThat(r.value().kind()).isEqualTo(DeadLetter.Kind.TOO_LARGE);
        assertThat(r.value().topic()).isEqualTo(harness.topics.pods());
        assertThat(r.value().key()).isEqualTo("node-1");
        assertThat(r.value().reason()).contains("RecordTooLargeException");
      });
      assertThat(registry.get(IngestMetrics.REFUSED).tag("reason", "too-large").counter().count()).isEqualTo(1);
      // the record after it is delivered
      harness.podsUntil(rs -> rs.stream().anyMatch(r -> r.value() instanceof NodeSync));
      // and no re-publish is asked for, however many probes pass (one a second while one is owed)
      await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5)).until(resyncs::isEmpty);
      assertThat(registry.get(IngestMetrics.REFUSED).tag("reason", "too-large").counter().count()).isEqualTo(1);
    }
  }

  private static List<NodeSync> syncsOf(List<ConsumerRecord<String, NodeEvent>> records) {
    List<NodeSync> out = new ArrayList<>();
    records.forEach(r -> {
      if (r.value() instanceof NodeSync s) {
        out.add(s);
      }
    });
    return out;
  }
}
