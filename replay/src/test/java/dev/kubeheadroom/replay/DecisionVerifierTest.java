package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** audit --verify: a recorded decision must re-derive from the inputs it carries. */
class DecisionVerifierTest {
  private static final List<PodInput> INPUTS = List.of(
      new PodInput("a", 500, 500, true, 0), new PodInput("b", 1500, 1500, true, 0),
      new PodInput("c", 6000, 6000, true, 0));

  private static NodeDecision decision(long targetOfA, String reasonOfA) {
    NodeResult r = SlackPolicy.computeNode(16000, INPUTS, PolicyConfig.DEFAULTS);
    return new NodeDecision("n1", Instant.parse("2026-03-01T12:00:00Z"), 1, SlackPolicy.NAME, false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), DecisionStats.of(r.stats()), DecisionInput.of(INPUTS), List.of(
            new PodChange("a", "ns", "pod-a", reasonOfA, 500, targetOfA,
                List.of(new ContainerChange("app", 500, targetOfA))),
            new PodChange("c", "ns", "pod-c", "grow", 6000, 12000,
                List.of(new ContainerChange("app", 6000, 12000)))));
  }

  /** A hierarchical decision: a in tenant "x", b and c in tenant "y". */
  private static NodeDecision hierarchical(long targetOfA) {
    List<Tenant> tenants = List.of(Tenant.of("x"), Tenant.of("y"), Tenant.of("y"));
    NodeResult r = HierarchicalPolicy.computeNode(16000, INPUTS, tenants, PolicyConfig.DEFAULTS);
    List<DecisionInput> inputs = List.of(DecisionInput.of(INPUTS.get(0), tenants.get(0)),
        DecisionInput.of(INPUTS.get(1), tenants.get(1)), DecisionInput.of(INPUTS.get(2), tenants.get(2)));
    return new NodeDecision("n1", Instant.parse("2026-03-01T12:00:00Z"), 1, HierarchicalPolicy.NAME, false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), DecisionStats.of(r.stats()), inputs, List.of(
            new PodChange("a", "ns", "pod-a", "grow", 500, targetOfA, List.of(new ContainerChange("app", 500, targetOfA)))))
        .inPool("batch");
  }

  /** a in gang ns/g, decided under the recorded ceiling 1.5 (its own node would give it more). */
  private static NodeDecision ganged(long targetOfA) {
    NodeResult r = SlackPolicy.computeNode(16000, INPUTS, PolicyConfig.DEFAULTS);
    List<DecisionInput> inputs = List.of(DecisionInput.of(INPUTS.get(0)).inGang("ns/g",
        new dev.kubeheadroom.schemas.CeilingRatio(1500, 1000)), DecisionInput.of(INPUTS.get(1)),
        DecisionInput.of(INPUTS.get(2)));
    return new NodeDecision("n1", Instant.parse("2026-03-01T12:00:00Z"), 1, SlackPolicy.NAME, false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), DecisionStats.of(r.stats()), inputs, List.of(
            new PodChange("a", "ns", "pod-a", "grow", 500, targetOfA, List.of(new ContainerChange("app", 500, targetOfA)))));
  }

  @Test
  void aGangMemberReDerivesUnderItsRecordedCeiling() {
    // a's own target is well above 750m; the gang's 1.5 ratio holds it at 500m × 1.5
    assertThat(DecisionVerifier.verify(ganged(750))).isEmpty();
    assertThat(DecisionVerifier.verify(ganged(1000))).singleElement().asString()
        .contains("recorded target 1000m").contains("re-derived 750m");
  }

  @Test
  void aHierarchicalDecisionReDerivesWithItsTenants() {
    // 8 cores of slack: tenant x books 500m of 8000m managed, so S_x = 500m and a gets 1000m
    assertThat(DecisionVerifier.verify(hierarchical(1000))).isEmpty();
    assertThat(DecisionVerifier.verify(hierarchical(1500))).singleElement().asString()
        .contains("recorded target 1500m").contains("re-derived 1000m");
  }

  @Test
  void aDecisionWhosePolicyAndTenantsDisagreeIsReported() {
    NodeDecision d = hierarchical(1000);
    NodeDecision flatNamed = new NodeDecision(d.node(), d.at(), 1, SlackPolicy.NAME, false, d.config(), d.stats(),
        d.inputs(), d.changes());
    assertThat(DecisionVerifier.verify(flatNamed)).singleElement().asString().contains("inputs with tenants");
  }

  @Test
  void aFaithfulDecisionReDerivesExactly() {
    assertThat(DecisionVerifier.verify(decision(1500, "grow"))).isEmpty();
  }

  @Test
  void theQosGuardsRaiseOfAtMostOneQuantumIsNotATamperedTarget() {
    // one quantum above (the guard), or less where the pod's cap (a LimitRange) stops the raise
    assertThat(DecisionVerifier.verify(decision(1510, "grow"))).isEmpty();
    assertThat(DecisionVerifier.verify(decision(1503, "grow"))).isEmpty();
    assertThat(DecisionVerifier.verify(decision(1511, "grow"))).singleElement().asString()
        .contains("recorded target 1511m");
  }

  @Test
  void aTamperedTargetIsReportedWithBothValues() {
    assertThat(DecisionVerifier.verify(decision(1700, "grow"))).singleElement().asString()
        .contains("ns/pod-a").contains("recorded target 1700m").contains("re-derived 1500m");
  }

  @Test
  void tamperedNodeStatsAreReported() {
    NodeDecision d = decision(1500, "grow");
    var s = d.stats();
    NodeDecision forged = new NodeDecision(d.node(), d.at(), d.configGeneration(), d.policy(), d.dryRun(),
        d.config(), new DecisionStats(s.allocatableMilli(), s.totalRequestsMilli(),
            s.slackMilli() + 1000, s.managedRequestsMilli(), s.managedPods(), s.nodePods(), s.factor()),
        d.inputs(), d.changes());
    assertThat(DecisionVerifier.verify(forged)).singleElement().asString().startsWith("node stats");
  }

  @Test
  void aChangeForAPodThePolicyWouldLeaveAloneIsReported() {
    NodeDecision d = decision(1500, "grow");
    List<PodInput> settled = List.of(new PodInput("a", 500, 1500, true, 0),
        new PodInput("b", 1500, 3000, true, 0), new PodInput("c", 6000, 12000, true, 0));
    NodeDecision stale = new NodeDecision(d.node(), d.at(), 1, d.policy(), false, d.config(), d.stats(),
        DecisionInput.of(settled), List.of(d.changes().get(0)));
    assertThat(DecisionVerifier.verify(stale)).singleElement().asString()
        .contains("ns/pod-a").contains("recorded a change, re-derived unchanged");
  }
}
