package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.ResizeOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dryRun flipped on over a backlog of enforcing decisions, then off again (the fault
 * suite's "dryRun flipped on over a backlog" row). The actuator, governed by the current config,
 * answers each enforcing decision of the backlog {@code dry-run} and resizes nothing
 * (DecisionGate); once enforcing again, the topology decides the pod anew from the limit it
 * really has. A backlog decision is thereby never applied late, and never lost: either the policy
 * still wants the change and it is decided again, or the node has moved on and the pod's own limit
 * is within the deadband of its new target (the suite's "moot, not lost").
 */
class DryRunFlipScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
    h.send(node16());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aBacklogDecisionAnsweredDryRunIsDecidedAgainOnceEnforcementResumes() {
    // given an enforcing decision for web-1 the actuator has not read yet
    h.send(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    NodeDecision backlog = h.decisions().get(0);
    assertThat(backlog.dryRun()).isFalse();
    // when the operator flips dryRun on, and the restarted actuator answers the backlog dry-run
    h.config(ClusterConfig.DEFAULTS);
    h.settle();
    h.send(dryRunAnswer(backlog));
    h.settle();
    assertThat(h.decisions()).allSatisfy(d -> assertThat(d.dryRun()).isTrue());
    // and then flips it off again
    h.config(enforcing());
    h.settle();
    // then web-1 is decided again, enforcing, at once (within the re-evaluation's spread)
    assertThat(h.decisions()).singleElement().satisfies(d -> {
      assertThat(d.dryRun()).isFalse();
      assertThat(targets(d)).containsExactly(Map.entry("web-1", 16_000L));
    });
  }

  @Test
  void aFlipOnAndOffBeforeTheNodeWasReEvaluatedStillDecidesAgainAtOnce() {
    // given an enforcing decision for web-1 the actuator has not read yet
    h.send(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    NodeDecision backlog = h.decisions().get(0);
    // when dryRun is flipped on and off again before the topology looked at n1 again, and the
    // actuator answered the backlog dry-run while it was on
    h.config(ClusterConfig.DEFAULTS);
    h.config(enforcing());
    h.send(dryRunAnswer(backlog));
    h.settle();
    // then web-1 is decided again at once: the answer says the target was not applied, so it is
    // no longer in flight (not left until the unconfirmed target expires, a backoffPeriod later)
    assertThat(h.decisions()).singleElement().satisfies(d -> {
      assertThat(d.dryRun()).isFalse();
      assertThat(targets(d)).containsExactly(Map.entry("web-1", 16_000L));
    });
  }

  @Test
  void aBacklogDecisionTheNodeMadeMootIsNotSentAgain() {
    // given an enforcing decision (web-1 to 16 cores) the actuator has not read yet
    h.send(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    NodeDecision backlog = h.decisions().get(0);
    // when dryRun is flipped on, the backlog answered dry-run, and a 6-core neighbour arrives:
    // web-1's target is now 2 + 8 × 2/8 = 4 cores, the limit it has
    h.config(ClusterConfig.DEFAULTS);
    h.settle();
    h.send(dryRunAnswer(backlog));
    h.send(pod("team-a", "web-2", "n1", 6000, 0));
    h.settle();
    h.decisions();
    h.config(enforcing());
    h.settle();
    // then, enforcing again, only the neighbour is resized: web-1 keeps 4 cores, and the 16-core
    // decision of the backlog stays unapplied, rightly
    List<NodeDecision> after = h.decisions();
    assertThat(after).singleElement().satisfies(d -> {
      assertThat(d.dryRun()).isFalse();
      assertThat(targets(d)).containsExactly(Map.entry("web-2", 12_000L));
    });
  }

  private ResizeOutcome dryRunAnswer(NodeDecision backlog) {
    PodChange c = backlog.changes().get(0);
    return new ResizeOutcome("n1", c.uid(), c.namespace(), c.name(), OutcomeResult.DRY_RUN, c.targetMilli(), h.now,
        "dryRun is on: not applied");
  }

  private static Map<String, Long> targets(NodeDecision d) {
    return d.changes().stream().collect(Collectors.toMap(PodChange::name, PodChange::targetMilli));
  }
}
