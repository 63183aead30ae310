package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.Tenancy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hierarchical tenancy (docs/design/headroom-design.txt §11.1) through the production topology. */
class TenancyScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.namespace(Fixtures.managedNs("team-a"));
    h.namespace(Fixtures.managedNs("team-b"));
    h.send(node16());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  /** Tenant a: twenty 100m pods; tenant b: one 2-core pod (12 cores of slack on 16). */
  private void manySmallAndOneLarge() {
    for (int i = 0; i < 20; i++) {
      h.send(Fixtures.pod("team-a", "a-" + i, "n1", 100, 0));
    }
    h.send(Fixtures.pod("team-b", "b-0", "n1", 2_000, 0));
  }

  private static Map<String, Long> targets(List<NodeDecision> ds) {
    return ds.stream().flatMap(d -> d.changes().stream())
        .collect(Collectors.toMap(c -> c.name(), c -> c.targetMilli(), (x, y) -> y));
  }

  @Test
  void byNamespaceATenantsManyPodsShareOnlyThatTenantsSlack() {
    // given hierarchical tenancy
    h.config(enforcing().withTenancy(Tenancy.NAMESPACES));
    manySmallAndOneLarge();
    // when
    h.settle();
    List<NodeDecision> ds = h.decisions();
    // then a's pods split a's 6 cores (300m of burst each) instead of each claiming the flat
    // policy's 571m floor; b keeps its 6 cores; the decision records the mode and each tenant
    assertThat(targets(ds)).containsEntry("a-0", 400L).containsEntry("a-19", 400L).containsEntry("b-0", 8_000L);
    assertThat(ds.get(0).policy()).isEqualTo(HierarchicalPolicy.NAME);
    assertThat(ds.get(0).inputs()).extracting(DecisionInput::tenant).containsOnly("team-a", "team-b");
  }

  @Test
  void withoutTheModeTheSameNodeIsSplitFlat() {
    // given the default (no tenancy)
    h.config(enforcing());
    manySmallAndOneLarge();
    // when
    h.settle();
    List<NodeDecision> ds = h.decisions();
    // then each of a's pods claims the floor: 20 × 570m of burst beside b's 6 cores, on 12 cores
    assertThat(targets(ds)).containsEntry("a-0", 670L).containsEntry("b-0", 8_000L);
    assertThat(ds.get(0).policy()).isEqualTo(SlackPolicy.NAME);
    assertThat(ds.get(0).inputs()).extracting(DecisionInput::tenant).containsOnlyNulls();
  }

  @Test
  void aNamespacesSlackWeightScalesItsShare() {
    // given team-b annotated with weight 2 (its request share counts double)
    h.config(enforcing().withTenancy(Tenancy.NAMESPACES));
    h.namespace(Fixtures.managedNs("team-b").withSlackWeight(2));
    manySmallAndOneLarge();
    // when
    h.settle();
    // then the 12 cores split 1:2 between the tenants: 4 cores across a's 20 pods, 8 to b
    assertThat(targets(h.decisions())).containsEntry("a-0", 300L).containsEntry("b-0", 10_000L);
  }
}
