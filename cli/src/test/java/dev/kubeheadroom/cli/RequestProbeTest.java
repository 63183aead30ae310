package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.cli.throttling.ContainerSeries;
import dev.kubeheadroom.cli.throttling.RequestWhatIf;
import dev.kubeheadroom.cli.throttling.WhatIfReport;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The request what-if through the real policy: the pod's requests scaled on its node's booking and
 * explained as {@code explain} explains it.
 */
class RequestProbeTest {
  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  static final NamespaceInfo TEAM_A = new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);

  static PodSnapshot pod(String name, ContainerSnapshot... containers) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", "Burstable", "1", 1, null, 0, null, false,
        List.of(), List.of(containers), ResizeStatus.NONE);
  }

  static final PodSnapshot WEB = pod("web-1", new ContainerSnapshot("app", ContainerKind.APP, 400, 800, false, false),
      new ContainerSnapshot("sidecar", ContainerKind.APP, 100, 500, false, false));

  static NodeBooking node(long allocatable, PodSnapshot... pods) {
    NodeBooking b = NodeBooking.empty("n1").apply(new NodeSnapshot("n1", allocatable, "linux", false, Map.of()), NOW)
        .booking();
    for (PodSnapshot p : pods) {
      b = b.apply(p, NOW).booking();
    }
    return b;
  }

  static Explanation explain(NodeBooking booking) {
    return Explanation.of(booking, WEB.uid(), ClusterConfig.DEFAULTS, Map.of("team-a", TEAM_A)::get, NOW,
        Optional.empty(), Optional.empty());
  }

  static RequestWhatIf probe(NodeBooking booking) {
    Explanation e = explain(booking);
    WhatIfReport report = WhatIfReport.of(WEB, e.trace().targetMilli(), 10, Map.of(
        "app", new ContainerSeries("app", 240.0, 600.0, List.of(0.95)),
        "sidecar", new ContainerSeries("sidecar", 0.0, 600.0, List.of(0.12))), "http://p", NOW,
        Duration.ofHours(1), Duration.ofMinutes(1));
    return RequestProbe.of(e, report, booking, RequestProbeTest::explain);
  }

  /** Headroom's target for web-1 with its requests scaled to {@code request}, explained from scratch. */
  static long targetAt(NodeBooking booking, long request, long other) {
    PodSnapshot scaled = pod("web-1", new ContainerSnapshot("app", ContainerKind.APP, request * 4 / 5, 800, false, false),
        new ContainerSnapshot("sidecar", ContainerKind.APP, request - request * 4 / 5, 500, false, false));
    return explain(node(booking.snapshot().allocatableMilli(), scaled, pod("batch",
        new ContainerSnapshot("main", ContainerKind.APP, other, 0, false, false)))).trace().targetMilli();
  }

  @Test
  void onAnEmptyNodeTheRequestNowAlreadyCoversIt() {
    RequestWhatIf r = probe(node(16000, WEB));

    assertThat(r.limitNeededMilli()).isEqualTo(1188); // 950m for app at 4/5 of the pod's request
    assertThat(r.requestNeededMilli()).isEqualTo(500);
    assertThat(r.targetAtNeededMilli()).isEqualTo(5000); // 10× the request: the multiplier cap
  }

  @Test
  void onABusierNodeTheSmallestRequestWhoseTargetCoversItIsFound() {
    PodSnapshot batch = pod("batch", new ContainerSnapshot("main", ContainerKind.APP, 5000, 0, false, false));
    NodeBooking booking = node(6500, WEB, batch); // 1000m of slack: web-1's target is 1000m now

    RequestWhatIf r = probe(booking);

    assertThat(explain(booking).trace().targetMilli()).isLessThan(1188);
    assertThat(r.requestNeededMilli()).isGreaterThan(500);
    assertThat(targetAt(booking, r.requestNeededMilli(), 5000)).isEqualTo(r.targetAtNeededMilli())
        .isGreaterThanOrEqualTo(1188);
    assertThat(targetAt(booking, r.requestNeededMilli() - 1, 5000)).isLessThan(1188);
  }

  @Test
  void onAFullNodeNoRequestThatFitsCoversIt() {
    PodSnapshot batch = pod("batch", new ContainerSnapshot("main", ContainerKind.APP, 3000, 0, false, false));

    RequestWhatIf r = probe(node(4000, WEB, batch)); // 500m of slack: at most a 1000m request, target 1000m

    assertThat(r.requestNeededMilli()).isNull();
    assertThat(r.limitNeededMilli()).isEqualTo(1188);
  }

  @Test
  void aPodNotManagedHasNoRequestWhatIf() {
    NodeBooking booking = node(16000, WEB);
    Explanation unmanaged = Explanation.of(booking, WEB.uid(), ClusterConfig.DEFAULTS,
        Map.of("team-a", new NamespaceInfo("team-a", Map.of(), 0))::get, NOW, Optional.empty(), Optional.empty());

    assertThat(unmanaged.notManagedBecause()).isNotNull();
    assertThat(RequestProbe.of(unmanaged, WhatIfReport.of(WEB, null, 10, Map.of(), "http://p", NOW,
        Duration.ofHours(1), Duration.ofMinutes(1)), booking, RequestProbeTest::explain)).isNull();
  }
}
