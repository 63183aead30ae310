package dev.kubeheadroom.cli.throttling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which containers the what-if shows, next to which limits and targets. */
class WhatIfReportTest {
  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  static PodSnapshot pod(ContainerSnapshot... containers) {
    return new PodSnapshot("uid-1", "team-a", "web-1", "n1", "Running", "Burstable", "1", 1, null, 0, null, false,
        List.of(), List.of(containers), ResizeStatus.NONE);
  }

  static ContainerSeries series(String name, double throttled, double usage) {
    return new ContainerSeries(name, throttled * 600, 600.0, List.of(usage, usage));
  }

  static WhatIfReport report(PodSnapshot pod, Long podTarget, Map<String, ContainerSeries> series) {
    return WhatIfReport.of(pod, podTarget, 10, series, "http://prometheus:9090", NOW, Duration.ofHours(1),
        Duration.ofMinutes(1));
  }

  @Test
  void rowsFollowTheSpecAndHeadroomsTargetIsSplitByRequest() {
    PodSnapshot pod = pod(new ContainerSnapshot("init", ContainerKind.INIT, 1000, 0, false, false),
        new ContainerSnapshot("app", ContainerKind.APP, 400, 800, false, false),
        new ContainerSnapshot("sidecar", ContainerKind.SIDECAR, 100, 500, false, false));

    WhatIfReport r = report(pod, 5000L, Map.of("sidecar", series("sidecar", 0, 0.12),
        "app", series("app", 0.4, 0.95)));

    // The init container ran before the window: no row. Spec order, not Prometheus' order.
    assertThat(r.containers()).extracting(ContainerWhatIf::container).containsExactly("app", "sidecar");
    assertThat(r.containers()).extracting(ContainerWhatIf::targetMilli).containsExactly(4000L, 1000L);
    assertThat(r.containers()).extracting(ContainerWhatIf::limitMilli).containsExactly(800L, 500L);
    assertThat(r.podSuggestedMilli()).isEqualTo(950 + 120);
    assertThat(r.podLimitMilli()).isEqualTo(1300);
    assertThat(r.podTargetMilli()).isEqualTo(5000);
    assertThat(r.from()).isEqualTo(NOW.minus(Duration.ofHours(1)));
    assertThat(r.window()).isEqualTo("1h");
    assertThat(r.step()).isEqualTo("1m");
    assertThat(r.suggestion()).isEqualTo("the p99 of the 1m usage rate, rounded up to the 10m quantum");
  }

  @Test
  void anInitContainerWithUsageAndAContainerThePodNoLongerNamesGetRowsWithoutTargets() {
    PodSnapshot pod = pod(new ContainerSnapshot("init", ContainerKind.INIT, 1000, 0, false, false),
        new ContainerSnapshot("app", ContainerKind.APP, 400, 800, false, false));

    WhatIfReport r = report(pod, 5000L, Map.of("init", series("init", 0, 0.5), "app", series("app", 0, 0.2),
        "debugger", series("debugger", 0, 0.05)));

    assertThat(r.containers()).extracting(ContainerWhatIf::container).containsExactly("init", "app", "debugger");
    assertThat(r.containers()).extracting(ContainerWhatIf::targetMilli).containsExactly(null, 5000L, null);
    assertThat(r.containers()).extracting(ContainerWhatIf::verdict).containsExactly("no-limit", "covered", "no-limit");
    assertThat(r.podSuggestedMilli()).isEqualTo(200); // only what Headroom's pod limit covers
  }

  @Test
  void aContainerPrometheusHasNothingForIsNoDataAndAPodNotManagedHasNoTargets() {
    PodSnapshot pod = pod(new ContainerSnapshot("app", ContainerKind.APP, 400, 0, false, false),
        new ContainerSnapshot("sidecar", ContainerKind.APP, 100, 500, false, false));

    WhatIfReport r = report(pod, null, Map.of("sidecar", series("sidecar", 0, 0.1)));

    assertThat(r.containers()).extracting(ContainerWhatIf::verdict).containsExactly("no-data", "covered");
    assertThat(r.containers()).extracting(ContainerWhatIf::targetMilli).containsOnlyNulls();
    assertThat(r.podLimitMilli()).isNull(); // a requesting container without a limit: the pod has none
    assertThat(r.podTargetMilli()).isNull();
  }

  @Test
  void theTableShowsTheFiguresAndWhatTheyMean() {
    PodSnapshot pod = pod(new ContainerSnapshot("app", ContainerKind.APP, 400, 800, false, false),
        new ContainerSnapshot("sidecar", ContainerKind.APP, 100, 500, false, false));
    StringWriter text = new StringWriter();

    report(pod, 5000L, Map.of("app", series("app", 0.4, 0.95), "sidecar", series("sidecar", 0, 0.12)))
        .print(new PrintWriter(text));

    assertThat(text.toString().lines().toList()).containsExactly(
        "Throttling what-if, 2026-12-01T11:00:00Z to 2026-12-01T12:00:00Z (1h in 1m steps; Prometheus"
            + " http://prometheus:9090):",
        "  CONTAINER            THROTTLED     P50     P95     P99     MAX  SUGGESTED   LIMIT  TARGET  VERDICT",
        "  app                      40.0%    950m    950m    950m    950m      ≥950m    800m       4  limit-too-low",
        "  sidecar                   0.0%    120m    120m    120m    120m       120m    500m       1  covered",
        "  SUGGESTED is the p99 of the 1m usage rate, rounded up to the 10m quantum: a limit there covers the usage"
            + " of 99% of the steps.",
        "  ≥: throttled in 1% or more of its CFS periods, its usage was cut at its limit: it wanted more than it got.",
        "  Pod: suggested 1070m in total, limit 1300m, Headroom's target now 5. Headroom splits one pod limit by"
            + " request: a larger request raises it.");
  }
}
