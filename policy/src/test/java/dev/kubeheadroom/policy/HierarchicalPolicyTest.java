package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Worked examples of hierarchical tenancy (docs/design/headroom-design.txt §11.1). */
class HierarchicalPolicyTest {
  private static final PolicyConfig CONFIG = PolicyConfig.DEFAULTS;

  @Test
  void manySmallPodsOfOneTenantDoNotTakeTheSlackOfAnother() {
    // given a 16-core node: tenant a runs 20 pods of 100m, tenant b one pod of 2 cores (slack 12 cores)
    List<PodInput> pods = new ArrayList<>();
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      pods.add(new PodInput("a-" + i, 100, 0, true, 0));
      tenants.add(Tenant.of("a"));
    }
    pods.add(new PodInput("b-0", 2000, 0, true, 0));
    tenants.add(Tenant.of("b"));
    // when
    NodeResult flat = SlackPolicy.computeNode(16_000, pods, CONFIG.withMaxMultiplier(0));
    NodeResult tenancy = HierarchicalPolicy.computeNode(16_000, pods, tenants, CONFIG.withMaxMultiplier(0));
    // then flat: each of a's pods claims the 571m floor, 11.4 cores in all, beside b's 6 cores
    // (17.4 cores of burst on 12 cores of slack); by tenant: a and b book 2 cores each, so each
    // tenant's slack is 6 cores and b's pod keeps all of its own
    assertThat(target(flat, "a-0")).isEqualTo(670);
    assertThat(target(flat, "b-0")).isEqualTo(8000);
    assertThat(target(tenancy, "a-0")).isEqualTo(400);
    assertThat(target(tenancy, "b-0")).isEqualTo(8000);
  }

  @Test
  void aNamespaceWeightScalesItsRequestShare() {
    // given two tenants booking 1 core each on an 8-core node (6 cores of slack), b weighted 2
    List<PodInput> pods = List.of(new PodInput("a", 1000, 0, true, 0), new PodInput("b", 1000, 0, true, 0));
    List<Tenant> tenants = List.of(Tenant.of("a"), new Tenant("b", 2.0));
    // when
    NodeResult result = HierarchicalPolicy.computeNode(8000, pods, tenants, CONFIG);
    // then the slack splits 1:2
    assertThat(target(result, "a")).isEqualTo(3000);
    assertThat(target(result, "b")).isEqualTo(5000);
  }

  @Test
  void burstsAndQuantizationRoundDownSoTheSlackIsNeverOversubscribed() {
    // given three equal pods of one tenant sharing 1000m of slack, quantum 10m
    List<PodInput> pods = List.of(new PodInput("x", 1000, 0, true, 0), new PodInput("y", 1000, 0, true, 0),
        new PodInput("z", 1000, 0, true, 0));
    List<Tenant> tenants = List.of(Tenant.of("t"), Tenant.of("t"), Tenant.of("t"));
    // when
    NodeResult result = HierarchicalPolicy.computeNode(4000, pods, tenants, CONFIG);
    // then 333.3m each rounds down to 1330m, not to the flat policy's 1330m + nearest
    assertThat(result.decisions()).extracting(Decision::targetLimitMilli).containsOnly(1330L);
  }

  private static long target(NodeResult result, String key) {
    return result.decisions().stream().filter(d -> d.key().equals(key)).findFirst().orElseThrow().targetLimitMilli();
  }
}
