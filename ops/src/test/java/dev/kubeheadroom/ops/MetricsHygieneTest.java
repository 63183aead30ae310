package dev.kubeheadroom.ops;

import static dev.kubeheadroom.ops.Fixtures.change;
import static dev.kubeheadroom.ops.Fixtures.decision;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cardinality and naming rules of the scrape (docs/observability.md). */
class MetricsHygieneTest {
  private final PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();

  private Scrape scrape() {
    return Scrape.parse(registry.scrape());
  }

  @Test
  void perPodSeriesAreOffByDefault() {
    HeadroomMetrics metrics = new HeadroomMetrics(registry);

    metrics.recordDecision(decision("node-a", 8_000, 2.0, 1, change("team-a", "web-1", 3_000)));
    metrics.podApplied("team-a", "web-1", 3_000);

    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_pod_target_cores")).isEmpty();
    assertThat(scrape.named("headroom_pod_applied_limit_cores")).isEmpty();
    // the per-node series are not affected
    assertThat(scrape.value("headroom_node_factor", Map.of("node", "node-a"))).contains(2.0);
  }

  @Test
  void targetAndAppliedAreDistinctFamilies() {
    HeadroomMetrics metrics = new HeadroomMetrics(registry, PodSeries.upTo(10));

    metrics.recordDecision(decision("node-a", 8_000, 2.0, 1, change("team-a", "web-1", 3_000)));
    metrics.podApplied("team-a", "web-1", 2_500);

    Scrape scrape = scrape();
    Map<String, String> pod = Map.of("namespace", "team-a", "pod", "web-1");
    assertThat(scrape.value("headroom_pod_target_cores", pod)).contains(3.0);
    assertThat(scrape.value("headroom_pod_applied_limit_cores", pod)).contains(2.5);
    assertThat(scrape.types()).doesNotContainKey("headroom_pod_limit_cores");
  }

  @Test
  void podSeriesStopAtTheBoundAndTheOverflowIsCounted() {
    HeadroomMetrics metrics = new HeadroomMetrics(registry, PodSeries.upTo(2));

    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 3_000),
        change("team-a", "web-2", 3_000), change("team-a", "web-3", 3_000)));
    // an existing series still updates at the bound
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 1_000)));

    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_pod_target_cores")).hasSize(2);
    assertThat(scrape.value("headroom_pod_target_cores", Map.of("namespace", "team-a", "pod", "web-1")))
        .contains(1.0);
    assertThat(scrape.value("headroom_pod_series_overflow_total", Map.of("metric", "pod_target_cores")))
        .contains(1.0);

    // when a pod goes, its slot is free again
    metrics.podRemoved("team-a", "web-2");
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 2, change("team-a", "web-3", 3_000)));
    assertThat(scrape().named("headroom_pod_target_cores")).extracting(s -> s.labels().get("pod"))
        .containsExactlyInAnyOrder("web-1", "web-3");
  }

  @Test
  void aRemovedPodLosesBothItsTargetAndItsAppliedSeries() {
    HeadroomMetrics metrics = new HeadroomMetrics(registry, PodSeries.upTo(10));
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 1, change("team-a", "web-1", 3_000)));
    metrics.podApplied("team-a", "web-1", 3_000);

    metrics.podRemoved("team-a", "web-1");

    assertThat(scrape().text()).doesNotContain("web-1");
  }

  @Test
  void buildInfoCarriesTheMavenVersion() {
    new HeadroomMetrics(registry);

    Scrape.Sample info = scrape().named("headroom_build_info").get(0);

    assertThat(info.value()).isEqualTo(1.0);
    assertThat(info.labels()).containsKeys("version", "java_version");
    // filtered from the pom, not the literal placeholder
    assertThat(info.labels().get("version")).matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void kafkaStreamsPerProcessorMetersAreDroppedAndOtherStreamsMetersKept() {
    Counter.builder("kafka.stream.processor.node.process.total")
        .tag("processor.node.id", "KSTREAM-SOURCE-0000000000").register(registry).increment();
    Counter.builder("kafka.stream.task.process.total").tag("task.id", "0_1")
        .register(registry).increment();

    Scrape scrape = scrape();
    assertThat(scrape.text()).doesNotContain("kafka_stream_processor_node");
    assertThat(scrape.named("kafka_stream_task_process_total")).hasSize(1);
  }
}
