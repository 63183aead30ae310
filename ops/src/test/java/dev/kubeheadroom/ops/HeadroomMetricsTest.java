package dev.kubeheadroom.ops;

import static dev.kubeheadroom.ops.Fixtures.change;
import static dev.kubeheadroom.ops.Fixtures.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeStatus;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadroomMetricsTest {
  private final PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
  private final HeadroomMetrics metrics = new HeadroomMetrics(registry, PodSeries.upTo(100));

  private Scrape scrape() {
    return Scrape.parse(registry.scrape());
  }

  @Test
  void fencedRecordsAreCountedByTheirSourceTopic() {
    metrics.fenced("headroom.pods");
    metrics.fenced("headroom.pods");
    metrics.fenced("headroom.nodes");

    Scrape scrape = scrape();
    assertThat(scrape.types()).containsEntry("headroom_fenced_records_total", "counter");
    assertThat(scrape.value("headroom_fenced_records_total", Map.of("topic", "headroom.pods"))).contains(2.0);
    assertThat(scrape.value("headroom_fenced_records_total", Map.of("topic", "headroom.nodes"))).contains(1.0);
  }

  @Test
  void scrapeCarriesEveryHeadroomMetricWithItsNameLabelsAndType() {
    // given a decision, a resize, a reconcile and a dead letter
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 3_000)));
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.DEFERRED);
    metrics.reconcileTimer().record(Duration.ofMillis(12));
    metrics.deadLetter("headroom.pods", "null-key");

    // when scraped
    Scrape scrape = scrape();

    // then every family is there, typed, with exactly its labels
    assertThat(scrape.types())
        .containsEntry("headroom_node_factor", "gauge")
        .containsEntry("headroom_node_slack_cores", "gauge")
        .containsEntry("headroom_pod_target_cores", "gauge")
        .containsEntry("headroom_resizes_total", "counter")
        .containsEntry("headroom_reconcile_duration_seconds", "histogram")
        .containsEntry("headroom_pods_managed", "gauge")
        .containsEntry("headroom_resize_deferred_pods", "gauge")
        .containsEntry("headroom_dead_letters_total", "counter");
    assertThat(scrape.value("headroom_node_factor", Map.of("node", "node-a"))).contains(2.0);
    assertThat(scrape.value("headroom_node_slack_cores", Map.of("node", "node-a"))).contains(8.0);
    assertThat(scrape.value("headroom_pod_target_cores", Map.of("namespace", "team-a", "pod", "web-1")))
        .contains(3.0);
    assertThat(scrape.value("headroom_resizes_total", Map.of("result", "deferred"))).contains(1.0);
    assertThat(scrape.value("headroom_pods_managed", Map.of())).contains(3.0);
    assertThat(scrape.value("headroom_resize_deferred_pods", Map.of())).contains(1.0);
    assertThat(scrape.value("headroom_dead_letters_total",
        Map.of("topic", "headroom.pods", "reason", "null-key"))).contains(1.0);
    assertThat(scrape.value("headroom_reconcile_duration_seconds_count", Map.of())).contains(1.0);
    assertThat(scrape.named("headroom_reconcile_duration_seconds_bucket"))
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.labels()).containsOnlyKeys("le"));
  }

  @Test
  void resizeCountersExistAtZeroForEveryResultBeforeAnyResize() {
    // given a fresh registry (no resize yet)
    // when scraped
    List<Scrape.Sample> counters = scrape().named("headroom_resizes_total");

    // then one series per wire name, each at 0
    assertThat(counters)
        .extracting(s -> s.labels().get("result"))
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(OutcomeResult.values()).map(OutcomeResult::wireName).toList());
    assertThat(counters).allSatisfy(s -> assertThat(s.value()).isZero());
  }

  @Test
  void removingAPodRemovesItsLimitSeriesAndItsDeferredMark() {
    // given two pods on one node, one deferred
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 2,
        change("team-a", "web-1", 3_000), change("team-a", "web-2", 2_000)));
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.DEFERRED);

    // when web-1 goes
    metrics.podRemoved("team-a", "web-1");

    // then only web-2's series is left, and nothing is deferred
    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_pod_target_cores"))
        .extracting(s -> s.labels().get("pod"))
        .containsExactly("web-2");
    assertThat(scrape.value("headroom_resize_deferred_pods", Map.of())).contains(0.0);
  }

  @Test
  void removingANodeRemovesItsSeriesAndThoseOfItsPods() {
    // given two nodes with a pod each
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 3_000)));
    metrics.recordDecision(decision("node-b", 2_000, 1.5, 4, change("team-b", "api-1", 1_500)));

    // when node-a goes
    metrics.nodeRemoved("node-a");

    // then node-a and web-1 are gone from every family and pods_managed drops to node-b's count
    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_node_factor")).extracting(s -> s.labels().get("node"))
        .containsExactly("node-b");
    assertThat(scrape.named("headroom_node_slack_cores")).extracting(s -> s.labels().get("node"))
        .containsExactly("node-b");
    assertThat(scrape.named("headroom_pod_target_cores")).extracting(s -> s.labels().get("pod"))
        .containsExactly("api-1");
    assertThat(scrape.value("headroom_pods_managed", Map.of())).contains(4.0);
    assertThat(scrape.text()).doesNotContain("node-a").doesNotContain("web-1");
  }

  @Test
  void aLaterDecisionUpdatesTheSameSeriesInsteadOfAddingOne() {
    // given a pod's limit recorded once
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 1, change("team-a", "web-1", 3_000)));

    // when the next decision shrinks it and the slack
    metrics.recordDecision(decision("node-a", 1_000, 1.25, 1, change("team-a", "web-1", 1_250)));

    // then one series per name, with the new values
    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_pod_target_cores")).singleElement()
        .extracting(Scrape.Sample::value).isEqualTo(1.25);
    assertThat(scrape.named("headroom_node_factor")).singleElement()
        .extracting(Scrape.Sample::value).isEqualTo(1.25);
  }

  @Test
  void aResizeThatIsNoLongerDeferredLeavesTheDeferredGauge() {
    // given a pod the kubelet deferred, seen in two snapshots (counted once)
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.DEFERRED);
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.DEFERRED);
    assertThat(scrape().value("headroom_resize_deferred_pods", Map.of())).contains(1.0);

    // when the kubelet applies it, then it turns infeasible on a later try
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.NONE);
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.INFEASIBLE);

    // then the gauge is back at 0, and each state was counted once
    Scrape scrape = scrape();
    assertThat(scrape.value("headroom_resize_deferred_pods", Map.of())).contains(0.0);
    assertThat(scrape.value("headroom_resizes_total", Map.of("result", "deferred"))).contains(1.0);
    assertThat(scrape.value("headroom_resizes_total", Map.of("result", "infeasible"))).contains(1.0);
  }

  @Test
  void precreatedDeadLetterCountersStartAtZero() {
    // when a stage declares the topics it reads
    metrics.precreateDeadLetters(List.of("headroom.pods", "headroom.nodes"));

    // then each has its usual reasons' series at 0
    assertThat(scrape().named("headroom_dead_letters_total"))
        .extracting(s -> s.labels().get("topic"), s -> s.labels().get("reason"), Scrape.Sample::value)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("headroom.pods", "unreadable", 0.0),
            org.assertj.core.groups.Tuple.tuple("headroom.pods", "processing-error", 0.0),
            org.assertj.core.groups.Tuple.tuple("headroom.nodes", "unreadable", 0.0),
            org.assertj.core.groups.Tuple.tuple("headroom.nodes", "processing-error", 0.0));
  }

  @Test
  void forgettingAllNodesAfterARebalanceLeavesNoNodeOrPodSeries() {
    // given two nodes decided here
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 3_000)));
    metrics.recordDecision(decision("node-b", 2_000, 1.5, 4, change("team-b", "api-1", 1_500)));

    // when their partitions move away
    metrics.forgetAllNodes();

    // then no per-node or per-pod series is left, and the resize counters stay
    Scrape scrape = scrape();
    assertThat(scrape.named("headroom_node_factor")).isEmpty();
    assertThat(scrape.named("headroom_node_slack_cores")).isEmpty();
    assertThat(scrape.named("headroom_pod_target_cores")).isEmpty();
    assertThat(scrape.value("headroom_pods_managed", Map.of())).contains(0.0);
    assertThat(scrape.named("headroom_resizes_total")).hasSize(OutcomeResult.values().length);
  }

  @Test
  void refusalBackoffsAreCountedByResultFromZero() {
    assertThat(scrape().types()).containsEntry("headroom_resize_backoffs_total", "counter");
    for (String result : List.of("infeasible", "quota-denied", "conflict", "error", "rejected")) {
      assertThat(scrape().value("headroom_resize_backoffs_total", Map.of("result", result)))
          .as(result).contains(0.0);
    }
    metrics.backoff(OutcomeResult.ERROR);
    metrics.backoff(OutcomeResult.ERROR);
    metrics.backoff(OutcomeResult.QUOTA_DENIED);
    assertThat(scrape().value("headroom_resize_backoffs_total", Map.of("result", "error"))).contains(2.0);
    assertThat(scrape().value("headroom_resize_backoffs_total", Map.of("result", "quota-denied")))
        .contains(1.0);
    assertThat(scrape().value("headroom_resize_backoffs_total", Map.of("result", "applied"))).isEmpty();
  }
}
