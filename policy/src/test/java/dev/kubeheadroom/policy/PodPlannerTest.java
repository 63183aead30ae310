package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Table tests for {@link PodPlanner}: docs/design/policy.md, "Splitting a pod's target across its containers"
 * and "QoS must never change"; docs/design/headroom-design.txt §5.4 (pod-level bullet).
 */
class PodPlannerTest {

  private static final PolicyConfig DEFAULTS = PolicyConfig.DEFAULTS;

  private static ContainerInput container(String name, long requestMilli, long limitMilli) {
    return new ContainerInput(name, requestMilli, limitMilli, false);
  }

  private static ContainerInput guaranteedMemory(String name, long requestMilli, long limitMilli) {
    return new ContainerInput(name, requestMilli, limitMilli, true);
  }

  private static PodInput podOf(String key, List<ContainerInput> containers) {
    return new PodInput(
        key,
        ContainerInput.podRequestMilli(containers),
        ContainerInput.podCurrentLimitMilli(containers),
        true,
        0);
  }

  /** Runs the real policy for {@code pod} among {@code others} and plans it. */
  private static PodPlan planOnNode(
      long allocatableMilli, List<ContainerInput> containers, List<PodInput> others) {
    PodInput pod = podOf("pod", containers);
    List<PodInput> pods = new java.util.ArrayList<>(others);
    pods.add(pod);
    NodeResult result = SlackPolicy.computeNode(allocatableMilli, pods, DEFAULTS);
    Decision decision =
        result.decisions().stream().filter(d -> d.key().equals("pod")).findFirst().orElseThrow();
    return PodPlanner.plan(decision, pod, containers, DEFAULTS);
  }

  @Nested
  class Split {

    @Test
    void splitGivesTheLeftoverMillicoreToTheLargestRemainder() {
      // given requests 100/200/300 and a 1000m target: exact shares 166.67/333.33/500
      List<ContainerInput> containers =
          List.of(container("a", 100, 0), container("b", 200, 0), container("c", 300, 0));
      // when
      long[] parts = PodPlanner.split(1_000, containers);
      // then floors 166/333/500 leave 1m, which goes to a (remainder .67 beats .33)
      assertThat(parts).containsExactly(167, 333, 500);
    }

    @Test
    void splitSumsExactlyToTheTargetWithManyLeftovers() {
      // given three equal containers and a target that leaves 2m after the floors
      List<ContainerInput> containers =
          List.of(container("a", 100, 0), container("b", 100, 0), container("c", 100, 0));
      // when
      long[] parts = PodPlanner.split(1_001, containers);
      // then equal remainders go to the earlier containers first, and the sum is exact
      assertThat(parts).containsExactly(334, 334, 333);
    }

    @Test
    void zeroRequestContainerGetsNothingAndKeepsItsLimit() {
      // given an app container and a logging sidecar with no CPU request but a 200m limit
      List<ContainerInput> containers =
          List.of(container("app", 500, 500), container("logger", 0, 200));
      // when the policy grants the pod 1500m (alone-ish on a roomy node)
      PodPlan plan =
          planOnNode(16_000, containers, List.of(new PodInput("big", 7_500, 0, true, 0)));
      // then the whole target goes to the app and the logger is not in the patch
      assertThat(PodPlanner.split(1_500, containers)).containsExactly(1_500, 0);
      assertThat(plan.targetLimitMilli()).isEqualTo(1_500);
      assertThat(plan.containers()).containsExactly(new ContainerTarget("app", 500, 1_500));
    }

    @Test
    void noContainerDropsBelowItsOwnRequest() {
      // given a target equal to the pod request (an overbooked node) and uneven requests
      List<ContainerInput> containers =
          List.of(container("a", 333, 0), container("b", 667, 0), container("c", 1, 0));
      // when
      long[] parts = PodPlanner.split(1_001, containers);
      // then each container gets exactly its request
      assertThat(parts).containsExactly(333, 667, 1);
    }

    @Test
    void onlyContainersWhoseLimitChangesArePatched() {
      // given two containers, one already at its share of the target
      List<ContainerInput> containers =
          List.of(container("app", 1_000, 2_000), container("side", 1_000, 1_000));
      PodInput pod = podOf("pod", containers);
      Decision decision = new Decision("pod", 4_000, true, Reason.GROW);
      // when
      PodPlan plan = PodPlanner.plan(decision, pod, containers, DEFAULTS);
      // then both are patched to 2000m … except app, which is there already
      assertThat(plan.apply()).isTrue();
      assertThat(plan.containers()).containsExactly(new ContainerTarget("side", 1_000, 2_000));
    }

    @Test
    void decisionWithinTheDeadbandPatchesNothing() {
      // given a decision the deadband held back
      List<ContainerInput> containers = List.of(container("app", 1_000, 2_000));
      Decision decision = new Decision("pod", 2_050, false, Reason.WITHIN_DEADBAND);
      // when
      PodPlan plan = PodPlanner.plan(decision, podOf("pod", containers), containers, DEFAULTS);
      // then
      assertThat(plan).isEqualTo(new PodPlan(2_050, false, Reason.WITHIN_DEADBAND, List.of()));
    }
  }

  @Nested
  class QosGuard {

    private final List<PodInput> overbooking = List.of(new PodInput("u", 20_000, 0, false, 0));

    @Test
    void wouldBeGuaranteedPodIsRaisedOneQuantumAboveItsRequest() {
      // given a pod with memory request = limit and a CPU limit above its request, on an
      // overbooked node where the policy's target is the request itself
      List<ContainerInput> containers =
          List.of(guaranteedMemory("app", 1_000, 1_500), guaranteedMemory("side", 500, 750));
      // when
      PodPlan plan = planOnNode(16_000, containers, overbooking);
      // then limit = request everywhere would make it Guaranteed, so the target is +10m
      assertThat(plan.targetLimitMilli()).isEqualTo(1_510);
      assertThat(plan.apply()).isTrue();
      assertThat(plan.reason()).isEqualTo(Reason.SHRINK);
      assertThat(plan.containers())
          .containsExactly(
              new ContainerTarget("app", 1_500, 1_007), new ContainerTarget("side", 750, 503));
    }

    @Test
    void wouldBeGuaranteedPodWithoutALimitIsLeftUnset() {
      // given the same pod with no CPU limit yet
      List<ContainerInput> containers =
          List.of(guaranteedMemory("app", 1_000, 0), guaranteedMemory("side", 500, 0));
      // when
      PodPlan plan = planOnNode(16_000, containers, overbooking);
      // then the guard leaves it alone rather than make it Guaranteed
      assertThat(plan).isEqualTo(new PodPlan(0, false, Reason.QOS_GUARD, List.of()));
    }

    @Test
    void guardUsesOneMillicoreWhenQuantizationIsOff() {
      // given the would-be Guaranteed pod and quantization disabled
      List<ContainerInput> containers = List.of(guaranteedMemory("app", 1_000, 1_500));
      PodInput pod = podOf("pod", containers);
      Decision decision = new Decision("pod", 1_000, true, Reason.SHRINK);
      // when
      PodPlan plan = PodPlanner.plan(decision, pod, containers, DEFAULTS.withQuantumMilli(0));
      // then
      assertThat(plan.targetLimitMilli()).isEqualTo(1_001);
    }

    @Test
    void guardRaisesOnlyAsFarAsThePodsCap() {
      // given the would-be Guaranteed pod capped 5m above its request (a LimitRange ratio, say)
      List<ContainerInput> containers = List.of(guaranteedMemory("app", 1_000, 1_500));
      PodInput capped = new PodInput("pod", 1_000, 1_500, true, 1_005);
      PodInput atRequest = new PodInput("pod", 1_000, 1_500, true, 1_000);
      Decision decision = new Decision("pod", 1_000, true, Reason.SHRINK);
      // when
      PodPlan plan = PodPlanner.plan(decision, capped, containers, DEFAULTS);
      PodPlan stuck = PodPlanner.plan(decision, atRequest, containers, DEFAULTS);
      // then the raise stops at the cap; with no room above the request the pod is left alone
      assertThat(plan.targetLimitMilli()).isEqualTo(1_005);
      assertThat(plan.containers()).containsExactly(new ContainerTarget("app", 1_500, 1_005));
      assertThat(stuck).isEqualTo(new PodPlan(1_500, false, Reason.QOS_GUARD, List.of()));
    }

    @Test
    void guardedPodAlreadyOneQuantumAboveStaysPut() {
      // given a pod the guard raised last time (limit = request + 10m)
      List<ContainerInput> containers = List.of(guaranteedMemory("app", 1_000, 1_010));
      // when the policy again wants the request
      PodPlan plan = planOnNode(16_000, containers, overbooking);
      // then nothing changes (no flip-flop between request and request + 10m)
      assertThat(plan).isEqualTo(new PodPlan(1_010, false, Reason.UNCHANGED, List.of()));
    }

    @Test
    void podWhoseMemoryIsNotGuaranteedMayHaveLimitEqualToRequest() {
      // given one container whose memory limit differs from its request
      List<ContainerInput> containers =
          List.of(guaranteedMemory("app", 1_000, 1_500), container("side", 500, 750));
      // when
      PodPlan plan = planOnNode(16_000, containers, overbooking);
      // then the pod stays Burstable anyway: the target is the request
      assertThat(plan.targetLimitMilli()).isEqualTo(1_500);
      assertThat(plan.containers())
          .containsExactly(
              new ContainerTarget("app", 1_500, 1_000), new ContainerTarget("side", 750, 500));
    }

    @Test
    void guardDoesNotApplyWhenTheTargetIsAboveTheRequest() {
      // given memory-guaranteed containers on a node with slack
      List<ContainerInput> containers = List.of(guaranteedMemory("app", 1_000, 0));
      // when
      PodPlan plan = planOnNode(16_000, containers, List.of());
      // then the policy's own target is used
      assertThat(plan.targetLimitMilli()).isEqualTo(10_000);
      assertThat(plan.reason()).isEqualTo(Reason.SET);
    }
  }
}
