package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.Reason;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** explain shows the planner's verdict when the pod's cap leaves no Burstable limit (docs/tenant-guide.md). */
class CapBelowQosFloorExplanationTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void explainSaysTheCapIsBelowTheQosFloorAndGivesRequestPlusOneQuantum() {
    // given a memory-Guaranteed 500m pod holding 8 cores, max-cpu 500m, on a full node
    PodSnapshot capped = new PodSnapshot("uid-c", "team-a", "capped", "n1", "Running", "Burstable", "1", 1, null, 500,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, 500, 8_000, true, false)),
        ResizeStatus.NONE);
    PodSnapshot other = new PodSnapshot("uid-o", "team-a", "other", "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, 1_500, 0, false, false)),
        ResizeStatus.NONE);
    NodeBooking booking = ClusterReports.bookings(List.of(new NodeSnapshot("n1", 2_000, "linux", false, Map.of())),
        List.of(capped, other)).get(0);
    NamespaceInfo ns = new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
    // when
    Explanation e = Explanation.of(booking, "uid-c", ClusterConfig.DEFAULTS.withDryRun(false), n -> ns, NOW,
        Optional.empty(), Optional.empty());
    StringWriter text = new StringWriter();
    e.print(new PrintWriter(text));
    // then the decision explain shows is the one the topology takes: 510m, named
    assertThat(e.decision().reason()).isEqualTo(Reason.CAP_BELOW_QOS_FLOOR);
    assertThat(e.decision().targetLimitMilli()).isEqualTo(510);
    assertThat(text.toString()).contains("deadband: the pod's cap is at or below its request and memory is Guaranteed");
  }
}
