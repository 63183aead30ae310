package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Table tests for {@link SlackPolicy#computeNode}: one per policy question of docs/design/headroom-design.txt §5, with
 * the arithmetic of docs/design/policy.md. Each test changes one knob from a known node.
 */
class SlackPolicyTest {

  private static final PolicyConfig DEFAULTS = PolicyConfig.DEFAULTS;

  static PodInput managed(String key, long requestMilli, long currentLimitMilli) {
    return new PodInput(key, requestMilli, currentLimitMilli, true, 0);
  }

  static PodInput capped(String key, long requestMilli, long currentLimitMilli, long userCapMilli) {
    return new PodInput(key, requestMilli, currentLimitMilli, true, userCapMilli);
  }

  static PodInput unmanaged(String key, long requestMilli) {
    return new PodInput(key, requestMilli, 0, false, 0);
  }

  /** The worked example of docs/design/headroom-design.txt §5.1: 0.5, 1.5 and 6 cores on a 16-core node. */
  static List<PodInput> workedExample() {
    return List.of(managed("A", 500, 500), managed("B", 1500, 1500), managed("C", 6000, 6000));
  }

  static long targetOf(NodeResult result, String key) {
    return result.decisions().stream()
        .filter(d -> d.key().equals(key))
        .findFirst()
        .orElseThrow()
        .targetLimitMilli();
  }

  @Nested
  class ProportionalSplit {

    @Test
    void workedExampleGivesEachPodItsRequestTimesTheNodeFactor() {
      // given the worked example of docs/design/headroom-design.txt §5.1: R = M = 8 cores booked of 16, so S = 8, F = 2
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, workedExample(), DEFAULTS);
      // then the node aggregates match and every limit is request × 2, applied as a grow
      assertThat(result.stats())
          .isEqualTo(new NodeStats(16_000, 8_000, 8_000, 8_000, 3, 3, 2.0));
      assertThat(result.decisions())
          .extracting(Decision::key, Decision::targetLimitMilli, Decision::apply, Decision::reason)
          .containsExactly(
              tuple("A", 1_500L, true, Reason.GROW),
              tuple("B", 3_000L, true, Reason.GROW),
              tuple("C", 12_000L, true, Reason.GROW));
    }

    @Test
    void unmanagedPodsReduceSlackButGetNoDecisionAndNoShare() {
      // given the worked example plus an unmanaged 4-core pod (§5.4: slack is physical truth)
      List<PodInput> pods =
          List.of(
              managed("A", 500, 500),
              unmanaged("daemon", 4_000),
              managed("B", 1500, 1500),
              managed("C", 6000, 6000));
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then S = 16 − 12 = 4 cores shared over M = 8 managed cores only (F = 1.5), A and B are
      // lifted by the floor min(1000, 4000 / 3), and the unmanaged pod gets no decision
      assertThat(result.stats())
          .isEqualTo(new NodeStats(16_000, 12_000, 4_000, 8_000, 3, 4, 1.5));
      assertThat(result.decisions())
          .extracting(Decision::key, Decision::targetLimitMilli)
          .containsExactly(tuple("A", 1_500L), tuple("B", 2_500L), tuple("C", 9_000L));
    }

    @Test
    void decisionsComeInInputOrderWhateverTheKeys() {
      // given managed pods in non-alphabetical order, interleaved with unmanaged ones
      List<PodInput> pods =
          List.of(
              managed("zeta", 300, 0),
              unmanaged("u1", 100),
              managed("alpha", 200, 0),
              managed("mu", 900, 0),
              unmanaged("u2", 50),
              managed("beta", 100, 0));
      // when
      NodeResult result = SlackPolicy.computeNode(8_000, pods, DEFAULTS);
      // then one decision per managed pod, in exactly the input order (docs/design/policy.md, "Target …")
      assertThat(result.decisions())
          .extracting(Decision::key)
          .containsExactly("zeta", "alpha", "mu", "beta");
    }

    @Test
    void nodeWithoutManagedPodsHasFactorOneAndNoDecisions() {
      // given only unmanaged pods (M = 0)
      NodeResult result =
          SlackPolicy.computeNode(4_000, List.of(unmanaged("u", 1_000)), DEFAULTS);
      // then slack is still reported but nothing is shared (docs/design/policy.md, "Node aggregates")
      assertThat(result.stats()).isEqualTo(new NodeStats(4_000, 1_000, 3_000, 0, 0, 1, 1.0));
      assertThat(result.decisions()).isEmpty();
    }
  }

  @Nested
  class Floor {

    @Test
    void floorLiftsASmallPodToRequestPlusOneCoreWhenSlackIsAbundant() {
      // given a 200m pod next to a 7.8-core one on a half-empty 16-core node (§5.2): its
      // proportional burst is only 200m, the floor is min(1000, 8000 / 2) = 1000
      List<PodInput> pods = List.of(managed("small", 200, 0), managed("big", 7_800, 0));
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then the small pod gets request + 1 core = 1200m (below its 10× cap of 2000m)
      assertThat(targetOf(result, "small")).isEqualTo(1_200);
      assertThat(targetOf(result, "big")).isEqualTo(15_600);
    }

    @Test
    void smallPodAloneOnAnEmptyNodeTakesTheWholeSlackUpToItsMultiplierCap() {
      // given the same 200m pod alone on an empty 16-core node: its proportional share is the
      // whole 15.8 cores of slack, more than the floor
      NodeResult result = SlackPolicy.computeNode(16_000, List.of(managed("small", 200, 0)), DEFAULTS);
      // then the 10× cap (§5.3.2) is what binds: 2000m, not the floor's 1200m
      assertThat(targetOf(result, "small")).isEqualTo(2_000);
    }

    @Test
    void tinyPodIsCappedAtTenTimesItsRequestBeforeTheFloorHelps() {
      // given a 10m pod whose floor-lifted target would be 10m + 1 core (§5.2, last paragraph)
      List<PodInput> pods = List.of(managed("tiny", 10, 0), managed("big", 7_990, 0));
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then maxMultiplier clamps it to 10 × 10m = 100m
      assertThat(targetOf(result, "tiny")).isEqualTo(100);
    }

    @Test
    void floorShrinksToTheEqualShareOfSlackOnANearlyFullNode() {
      // given 3 managed pods and only 300m of slack: floor = min(1000, 300 / 3) = 100
      List<PodInput> pods =
          List.of(managed("A", 100, 0), managed("B", 1_000, 0), unmanaged("u", 14_600), managed("C", 1_900, 0));
      // when (quantum off to see the raw floor)
      NodeResult result = SlackPolicy.computeNode(17_900, pods, DEFAULTS.withQuantumMilli(0));
      // then A gets 100m of floor, B and C their proportional 100m and 190m
      assertThat(result.decisions())
          .extracting(Decision::targetLimitMilli)
          .containsExactly(200L, 1_100L, 2_090L);
    }

    @Test
    void zeroFloorLeavesThePurelyProportionalSplit() {
      // given the 200m pod of the floor test, with the floor turned off
      List<PodInput> pods = List.of(managed("small", 200, 0), managed("big", 7_800, 0));
      // when
      NodeResult result =
          SlackPolicy.computeNode(16_000, pods, DEFAULTS.withMinBurstFloorMilli(0));
      // then it gets request × F = 200 × 2
      assertThat(targetOf(result, "small")).isEqualTo(400);
    }
  }

  @Nested
  class Caps {

    @Test
    void userCapClampsTheTargetBelowTheProportionalShare() {
      // given the worked example with C capped at 4 cores by its max-cpu annotation (§5.3.3)
      List<PodInput> pods =
          List.of(managed("A", 500, 500), managed("B", 1500, 1500), capped("C", 6000, 6000, 8_000));
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then C stops at its cap and the others are unaffected (caps do not redistribute)
      assertThat(result.decisions())
          .extracting(Decision::targetLimitMilli)
          .containsExactly(1_500L, 3_000L, 8_000L);
    }

    @Test
    void userCapBelowTheRequestLeavesTheRequest() {
      // given a cap below the pod's own request
      List<PodInput> pods = List.of(capped("C", 6_000, 0, 2_000));
      // when
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then the request is the hard floor, whatever a cap says (docs/design/policy.md step 2)
      assertThat(targetOf(result, "C")).isEqualTo(6_000);
    }

    @Test
    void maxMultiplierAcceptsADecimalFactor() {
      // given the worked example with maxMultiplier 1.5
      NodeResult result =
          SlackPolicy.computeNode(16_000, workedExample(), DEFAULTS.withMaxMultiplier(1.5));
      // then every target is request × 1.5 (the proportional 2× is above it)
      assertThat(result.decisions())
          .extracting(Decision::targetLimitMilli)
          .containsExactly(750L, 2_250L, 9_000L);
    }

    @ParameterizedTest(name = "maxMultiplier {0}")
    @CsvSource({"0", "-1"})
    void nonPositiveMaxMultiplierDisablesTheMultiplierCap(double maxMultiplier) {
      // given the 10m pod of the tiny-pod test, with the multiplier cap disabled (§5.3.2)
      List<PodInput> pods = List.of(managed("tiny", 10, 0), managed("big", 7_990, 0));
      // when
      NodeResult result =
          SlackPolicy.computeNode(16_000, pods, DEFAULTS.withMaxMultiplier(maxMultiplier));
      // then the floor lands in full: 10m + 1000m = 1010m
      assertThat(targetOf(result, "tiny")).isEqualTo(1_010);
    }

    @Test
    void allocatableCapsARoundingThatWouldOvershootTheNode() {
      // given one pod alone, no multiplier cap, so its raw target is the whole node (4005m)
      List<PodInput> pods = List.of(managed("solo", 1_000, 0));
      // when
      NodeResult result =
          SlackPolicy.computeNode(4_005, pods, DEFAULTS.withMaxMultiplier(0));
      // then rounding to 4010m would exceed allocatable, so it steps back to 4000m
      assertThat(targetOf(result, "solo")).isEqualTo(4_000);
    }

    @Test
    void userCapAboveAllocatableDoesNotLiftTheTargetPastTheNode() {
      // given the same lone pod with a user cap far above the node
      List<PodInput> pods = List.of(capped("solo", 1_000, 0, 64_000));
      // when
      NodeResult result =
          SlackPolicy.computeNode(4_005, pods, DEFAULTS.withMaxMultiplier(0));
      // then allocatable is still the bound (§5.3.3: min(nodeAllocatable, userCap))
      assertThat(targetOf(result, "solo")).isEqualTo(4_000);
    }
  }

  @Nested
  class Quantization {

    /**
     * Two equal 1000m managed pods on a node with {@code 2 × (raw − 1000)} of slack: each gets a
     * raw target of exactly {@code raw} (proportional share = floor = half the slack).
     */
    private NodeResult twinsWithRawTarget(long raw, long userCapMilli, PolicyConfig config) {
      long slack = 2 * (raw - 1_000);
      List<PodInput> pods =
          List.of(capped("one", 1_000, 0, userCapMilli), capped("two", 1_000, 0, userCapMilli));
      return SlackPolicy.computeNode(2_000 + slack, pods, config);
    }

    @ParameterizedTest(name = "raw {0}m → {1}m")
    @CsvSource({"1230, 1230", "1234, 1230", "1235, 1240", "1239, 1240"})
    void targetsRoundToTheNearestQuantumHalfUp(long raw, long expected) {
      // given a raw target with room above it
      // when (default quantum 10m, §5.3.4)
      NodeResult result = twinsWithRawTarget(raw, 0, DEFAULTS);
      // then
      assertThat(targetOf(result, "one")).isEqualTo(expected);
    }

    @Test
    void roundingThatWouldCrossTheCapStepsBackOneQuantum() {
      // given a user cap of 1235m and a raw target clamped to it
      // when 1235 would round up to 1240 > cap
      NodeResult result = twinsWithRawTarget(1_500, 1_235, DEFAULTS);
      // then it steps back to 1230 (docs/design/policy.md step 4)
      assertThat(targetOf(result, "one")).isEqualTo(1_230);
    }

    @Test
    void steppingBackNeverGoesBelowTheRequest() {
      // given a 1235m pod capped at its own request: hi = 1235, raw = 1235
      List<PodInput> pods = List.of(capped("odd", 1_235, 0, 1_235), managed("other", 1_000, 0));
      // when rounding gives 1240 > hi and stepping back gives 1230 < request
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      // then the target is the request itself, off the quantum grid
      assertThat(targetOf(result, "odd")).isEqualTo(1_235);
    }

    @ParameterizedTest(name = "quantumMilli {0}")
    @CsvSource({"0", "-10"})
    void nonPositiveQuantumDisablesRounding(long quantumMilli) {
      // given a raw target of 1234m
      // when quantization is disabled
      NodeResult result = twinsWithRawTarget(1_234, 0, DEFAULTS.withQuantumMilli(quantumMilli));
      // then the target is the raw millicore value
      assertThat(targetOf(result, "one")).isEqualTo(1_234);
    }

    @Test
    void largerQuantumRoundsToItsOwnGrid() {
      // given a raw target of 1234m and a 100m quantum
      NodeResult result = twinsWithRawTarget(1_234, 0, DEFAULTS.withQuantumMilli(100));
      // then
      assertThat(targetOf(result, "one")).isEqualTo(1_200);
    }
  }

  @Nested
  class Deadband {

    /**
     * A 200m pod alone on a big node with its user cap at {@code targetMilli}: the cap binds, so the
     * target is exactly {@code targetMilli} (a multiple of the quantum, within 10× the request).
     */
    private Decision decisionFor(long targetMilli, long currentLimitMilli) {
      List<PodInput> pods = List.of(capped("p", 200, currentLimitMilli, targetMilli));
      NodeResult result = SlackPolicy.computeNode(16_000, pods, DEFAULTS);
      assertThat(result.decisions()).hasSize(1);
      assertThat(result.decisions().get(0).targetLimitMilli()).isEqualTo(targetMilli);
      return result.decisions().get(0);
    }

    @ParameterizedTest(name = "current {1}m → target {0}m: apply={2}, {3}")
    @CsvSource({
      // grow band 10%
      "1100, 1000, true,  grow", // exactly +10%: the boundary applies
      "1090, 1000, false, within-deadband", // +9%
      "1200, 1000, true,  grow",
      "1060, 1000, false, within-deadband", // +6%: not enough to grow …
      // shrink band 5%
      "950,  1000, true,  shrink", // exactly −5%: the boundary applies
      "960,  1000, false, within-deadband", // −4%
      "940,  1000, true,  shrink", // … but −6% is enough to shrink
      "500,  1000, true,  shrink",
      // no change, and no limit yet
      "1000, 1000, false, unchanged",
      "1000, 0,    true,  set",
      "200,  0,    true,  set", // even a target equal to the request is set when there is no limit
    })
    void deadbandDecidesWhetherTheChangeIsWorthAPatch(
        long targetMilli, long currentLimitMilli, boolean apply, String reason) {
      // given a pod whose target and current limit are as in the row (docs/design/policy.md, "Deadband")
      // when
      Decision decision = decisionFor(targetMilli, currentLimitMilli);
      // then
      assertThat(decision.apply()).isEqualTo(apply);
      assertThat(decision.reason().wireName()).isEqualTo(reason);
    }

    @Test
    void zeroDeadbandsApplyEveryChange() {
      // given a 1-millicore difference and both bands off
      List<PodInput> pods = List.of(capped("p", 100, 999, 1_000));
      // when
      NodeResult result =
          SlackPolicy.computeNode(16_000, pods, DEFAULTS.withDeadbands(0, 0).withQuantumMilli(0));
      // then
      assertThat(result.decisions().get(0))
          .isEqualTo(new Decision("p", 1_000, true, Reason.GROW));
    }
  }
}
