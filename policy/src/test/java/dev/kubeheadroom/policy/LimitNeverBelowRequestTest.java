package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API server refuses a CPU limit below its request, so no plan may leave one in place: a
 * request raised within the deadband of the old limit still moves the limit, and a cap at or
 * below the request of a memory-Guaranteed pod gives request + one quantum, not the old limit.
 */
class LimitNeverBelowRequestTest {
  private static final PolicyConfig CONFIG = PolicyConfig.DEFAULTS;

  /** Plans the pod alone on a full node (slack 0: the policy's target is the request). */
  private static PodPlan planOnFullNode(ContainerInput container, long userCap) {
    return planOnFullNode(container, userCap, userCap);
  }

  private static PodPlan planOnFullNode(ContainerInput container, long userCap, long enforcedCap) {
    PodInput pod = new PodInput("pod", container.requestMilli(), container.currentLimitMilli(), true, userCap);
    PodInput other = new PodInput("other", 10_000, 0, false, 0);
    NodeResult result = SlackPolicy.computeNode(8_000, List.of(other, pod), CONFIG);
    Decision decision = result.decisions().stream().filter(d -> d.key().equals("pod")).findFirst().orElseThrow();
    return PodPlanner.plan(decision, pod, List.of(container), CONFIG, enforcedCap);
  }

  @Test
  void aRequestRaisedWithinTheGrowDeadbandOfTheOldLimitMovesTheLimit() {
    // given Headroom's 1000m limit, and the request raised to 1050m (5 %, inside the 10 % band)
    PodPlan plan = planOnFullNode(new ContainerInput("app", 1_050, 1_000, false), 0);
    // then the limit moves to the target, named for why
    assertThat(plan).isEqualTo(new PodPlan(1_050, true, Reason.BELOW_REQUEST,
        List.of(new ContainerTarget("app", 1_000, 1_050))));
  }

  @Test
  void theQosGuardNeverKeepsALimitBelowARaisedRequest() {
    // given memory request = limit, a limit of 2950m and the request raised to 3000m
    PodPlan plan = planOnFullNode(new ContainerInput("app", 3_000, 2_950, true), 0);
    // then the guard's target (request + one quantum) applies though it is inside the deadband
    assertThat(plan.apply()).isTrue();
    assertThat(plan.targetLimitMilli()).isEqualTo(3_010);
    assertThat(plan.reason()).isEqualTo(Reason.BELOW_REQUEST);
  }

  @Test
  void aCapAtOrBelowTheRequestOfAMemoryGuaranteedPodGivesRequestPlusOneQuantum() {
    // given 8 cores of limit, a 500m request and max-cpu 500m (or below), memory Guaranteed
    for (long cap : new long[] {500, 300}) {
      PodPlan plan = planOnFullNode(new ContainerInput("app", 500, 8_000, true), cap, 0);
      // then the limit is the lowest that keeps the pod Burstable, and the reason says the cap lost
      assertThat(plan).as("cap %dm", cap).isEqualTo(new PodPlan(510, true, Reason.CAP_BELOW_QOS_FLOOR,
          List.of(new ContainerTarget("app", 8_000, 510))));
    }
    // and once there, nothing moves
    PodPlan settled = planOnFullNode(new ContainerInput("app", 500, 510, true), 500, 0);
    assertThat(settled.apply()).isFalse();
    assertThat(settled.reason()).isEqualTo(Reason.UNCHANGED);
  }

  @Test
  void aLimitRangeAtTheRequestIsNeverPassedToKeepTheQosClass() {
    // given the same pod, its cap a LimitRange's (the API server refuses a limit above it)
    PodPlan plan = planOnFullNode(new ContainerInput("app", 500, 8_000, true), 500, 500);
    // then no resize the API server would refuse: the guard leaves the limit
    assertThat(plan).isEqualTo(new PodPlan(8_000, false, Reason.QOS_GUARD, List.of()));
  }
}
