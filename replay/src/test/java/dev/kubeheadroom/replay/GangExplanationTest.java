package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.Reason;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
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

/** explain for a gang member (§11.6): its gang, and the ceiling its node's last decision used. */
class GangExplanationTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void explainNamesTheGangAndAppliesTheRecordedCeiling() {
    // given a 1-core gang member alone on 16 cores (its node alone: 10 cores), whose last decision
    // recorded the gang's ceiling 2.0
    PodSnapshot pod = new PodSnapshot("uid-w1", "team-a", "w1", "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, 1_000, 2_000, false, false)),
        ResizeStatus.NONE).withGang("train");
    NodeBooking booking = ClusterReports.bookings(List.of(new NodeSnapshot("n1", 16_000, "linux", false, Map.of())),
        List.of(pod)).get(0);
    NamespaceInfo ns = new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
    NodeDecision last = new NodeDecision("n1", NOW.minusSeconds(5), 1, "proportional-v1", false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), new DecisionStats(16_000, 1_000, 15_000, 1_000, 1, 1, 16.0),
        List.of(new DecisionInput("uid-w1", 1_000, 10_000, true, 0).inGang("team-a/train", new CeilingRatio(2_000, 1_000))),
        List.of());
    // when
    Explanation e = Explanation.of(booking, "uid-w1", ClusterConfig.DEFAULTS.withDryRun(false), n -> ns, NOW,
        Optional.of(last), Optional.empty());
    StringWriter text = new StringWriter();
    e.print(new PrintWriter(text));
    // then its own target is 10 cores, the gang holds it at 2: already its limit
    assertThat(e.gang()).isEqualTo("team-a/train");
    assertThat(e.trace().targetMilli()).isEqualTo(10_000);
    assertThat(e.decision().targetLimitMilli()).isEqualTo(2_000);
    assertThat(e.decision().reason()).isEqualTo(Reason.UNCHANGED);
    assertThat(text.toString()).contains("gang team-a/train: ceiling ×2.000 (2/1,")
        .contains("within [request, 10] = 2");
  }
}
