package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.Fixtures.withRequest;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.topology.booking.PodEntry;
import dev.kubeheadroom.topology.booking.RefusalBackoff;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target the API server refuses every time (a LimitRange's 403, a validating policy, a 422) is
 * retried with growing gaps up to the cap, through the production topology; the backoff ends when
 * the pod changes and survives a restart.
 */
class RefusalBackoffScenariosTest {
  static final String UID = "uid-web-1";
  static final Duration BASE = ClusterConfig.DEFAULTS.backoffPeriod();
  @TempDir Path first;
  @TempDir Path second;

  private static ResizeOutcome refusal(NodeDecision d, OutcomeResult result, Instant at) {
    return new ResizeOutcome("n1", UID, "team-a", "web-1", result,
        d.changes().get(0).targetMilli(), at,
        "pods \"web-1\" is forbidden: maximum cpu usage per Container is 4, but limit is 16");
  }

  private static TopologyHarness started(Path dir) {
    TopologyHarness h = new TopologyHarness(dir);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
    h.send(node16());
    return h;
  }

  /** Runs {@code span} in 1 s steps, refusing every decision at once; the decision times. */
  private static List<Instant> refuseEverything(TopologyHarness h, Duration span, OutcomeResult result) {
    List<Instant> times = new ArrayList<>();
    Instant end = h.now.plus(span);
    while (h.now.isBefore(end)) {
      h.advance(Duration.ofSeconds(1));
      for (NodeDecision d : h.decisions()) {
        times.add(h.now);
        h.send(refusal(d, result, h.now));
      }
    }
    return times;
  }

  @Test
  void aPodRefusedEveryTimeIsRePatchedWithGrowingGapsUpToTheCapNotEveryDebounce() {
    try (TopologyHarness h = started(first)) {
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      List<Instant> times = refuseEverything(h, Duration.ofHours(2), OutcomeResult.ERROR);

      // Each gap is the n-th backoff (jitter included) plus at most one debounce and a tick.
      for (int n = 1; n < times.size(); n++) {
        Duration gap = Duration.between(times.get(n - 1), times.get(n));
        Duration backoff = RefusalBackoff.delay(UID, n, BASE);
        assertThat(gap).as("gap after refusal %d", n)
            .isBetween(backoff, backoff.plus(Duration.ofSeconds(4)));
      }
      // 1, 2, 4, 8, 16 min (less ≤ 20% jitter), then 16 min: 11 to 13 patches in two hours, where
      // re-patching at every debounce made thousands.
      assertThat(times).hasSizeBetween(11, 13);
      Duration capGap = Duration.between(times.get(times.size() - 2), times.get(times.size() - 1));
      assertThat(capGap).isGreaterThanOrEqualTo(BASE.multipliedBy(RefusalBackoff.CAP_MULTIPLE * 4L / 5));
      assertThat(times.stream().filter(t -> t.isBefore(times.get(0).plus(Duration.ofHours(1)))))
          .as("the stated worst case: at most 8 patches in the first hour").hasSizeLessThanOrEqualTo(8);
    }
  }

  @Test
  void everyRefusalBacksOffButAGonePodDoesNot() {
    for (OutcomeResult result : OutcomeResult.values()) {
      assertThat(RefusalBackoff.refuses(result)).as(result.wireName()).isEqualTo(
          result == OutcomeResult.INFEASIBLE || result == OutcomeResult.QUOTA_DENIED
              || result == OutcomeResult.CONFLICT || result == OutcomeResult.ERROR
              || result == OutcomeResult.REJECTED);
    }
    try (TopologyHarness h = started(first)) {
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      List<Instant> times = refuseEverything(h, Duration.ofMinutes(4), OutcomeResult.CONFLICT);
      assertThat(times).as("a persistent 409 (another field manager) backs off too").hasSize(3);
    }
  }

  @Test
  void aRefusalFollowedByAPodChangeRetriesAtOnceButAStatusOnlyUpdateDoesNot() {
    try (TopologyHarness h = started(first)) {
      PodSnapshot web = pod("team-a", "web-1", "n1", 2000, 0);
      h.send(web);
      h.settle();
      NodeDecision d = h.decisions().get(0);
      h.send(refusal(d, OutcomeResult.ERROR, h.now));
      h.send(new PodSnapshot(web.uid(), web.namespace(), web.name(), web.node(), web.phase(),
          web.qosClass(), "2", web.generation(), web.mode(), web.maxCpuMilli(), web.maxCpuInvalid(),
          web.vpaControlsLimits(), web.owners(), web.containers(), web.resize()));
      h.settle();
      assertThat(h.decisions()).as("a new resourceVersion alone changes no answer").isEmpty();

      h.send(withRequest(web, 3000));
      h.settle();
      assertThat(h.decisions()).as("a new spec is a new question: asked after one debounce")
          .singleElement().satisfies(again -> assertThat(again.changes().get(0).name()).isEqualTo("web-1"));
    }
  }

  @Test
  void theBackoffSurvivesARestartOnTheSameState() {
    List<KeyValue<String, PodEntry>> pods;
    List<KeyValue<String, NodeSnapshot>> nodes;
    Instant lastRefusal;
    try (TopologyHarness h = started(first)) {
      h.send(pod("team-a", "web-1", "n1", 2000, 0));
      List<Instant> times = refuseEverything(h, Duration.ofMinutes(2), OutcomeResult.ERROR);
      assertThat(times).hasSize(2); // refused twice: the next wait is the second backoff
      lastRefusal = times.get(1);
      pods = RestartFromChangelogTest.changelog(h, HeadroomTopology.PODS_STORE, new PodEntrySerde());
      nodes = RestartFromChangelogTest.changelog(h, HeadroomTopology.NODES_STORE,
          new JsonSerde<>(NodeSnapshot.class));
    }
    Duration second = RefusalBackoff.delay(UID, 2, BASE);
    assertThat(second).isGreaterThan(BASE.plusSeconds(10)); // longer than a first backoff
    Instant restart = lastRefusal.plusSeconds(5);
    try (TopologyHarness h = new TopologyHarness(this.second, restart)) {
      RestartFromChangelogTest.restore(h, HeadroomTopology.PODS_STORE, pods);
      RestartFromChangelogTest.restore(h, HeadroomTopology.NODES_STORE, nodes);
      h.config(enforcing());
      h.namespace(managedNs("team-a"));
      Instant due = lastRefusal.plus(second);
      while (h.now.isBefore(due.minusSeconds(1))) {
        h.advance(Duration.ofSeconds(1));
        assertThat(h.decisions()).as("still in the second backoff at %s", h.now).isEmpty();
      }
      h.advance(Duration.ofSeconds(5));
      assertThat(h.decisions()).as("retried when the restored backoff ends").hasSize(1);
    }
  }
}
