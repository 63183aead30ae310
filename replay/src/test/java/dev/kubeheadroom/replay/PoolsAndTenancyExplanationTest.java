package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Tenancy;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** explain under a node pool and hierarchical tenancy: the same knobs and split the topology uses. */
class PoolsAndTenancyExplanationTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static PodSnapshot pod(String ns, String name, long request) {
    return new PodSnapshot("uid-" + name, ns, name, "n1", "Running", "Burstable", "1", 1, null, 0, null, false,
        List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, request, 0, false, false)), ResizeStatus.NONE);
  }

  private static NamespaceInfo managed(String name, double weight) {
    return new NamespaceInfo(name, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0).withSlackWeight(weight);
  }

  @Test
  void explainNamesThePoolAndShowsTheTenantsPartOfTheSlack() {
    // given a batch node (no multiplier cap) with one 1-core pod each of team-a (weight 2) and team-b
    NodeSnapshot node = new NodeSnapshot("n1", 8_000, "linux", false, Map.of("pool", "batch"));
    NodeBooking booking = ClusterReports.bookings(List.of(node),
        List.of(pod("team-a", "a-1", 1_000), pod("team-b", "b-1", 1_000))).get(0);
    ClusterConfig config = ClusterConfig.DEFAULTS.withTenancy(Tenancy.NAMESPACES).withPools(List.of(
        NodePool.named("batch", new LabelSelector(Map.of("pool", "batch"), List.of())).withMaxMultiplier(0.0)));
    Map<String, NamespaceInfo> namespaces = Map.of("team-a", managed("team-a", 2), "team-b", managed("team-b", 0));
    // when
    Explanation e = Explanation.of(booking, "uid-a-1", config, namespaces::get, NOW, Optional.empty(), Optional.empty());
    StringWriter text = new StringWriter();
    e.print(new PrintWriter(text));
    // then the 6 cores of slack split 2:1, a-1 gets team-a's 4 cores, uncapped by the pool
    assertThat(e.pool()).isEqualTo("batch");
    assertThat(e.tenant()).isEqualTo(new Explanation.TenantShare("team-a", 2.0, 4000.0, 1000, 1));
    assertThat(e.trace().targetMilli()).isEqualTo(5_000);
    assertThat(text.toString())
        .contains("node pool batch: its knobs apply (maxMultiplier unlimited")
        .contains("tenant team-a (weight ×2.0): S_t = 4000.0m of the slack")
        .contains("target (quantized to 10m) = 5");
  }
}
