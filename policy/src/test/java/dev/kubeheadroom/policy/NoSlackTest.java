package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node without slack: every managed limit is its request passed through the quantize step
 * (docs/design/headroom-design.txt §5.4, last bullet; docs/design/policy.md, "slack = 0 ⇒ every target is its request passed
 * through step 4").
 */
class NoSlackTest {

  private static PodInput managed(String key, long requestMilli, long currentLimitMilli) {
    return new PodInput(key, requestMilli, currentLimitMilli, true, 0);
  }

  private static PodInput unmanaged(String key, long requestMilli) {
    return new PodInput(key, requestMilli, 0, false, 0);
  }

  /** The worked example of docs/design/headroom-design.txt §5.1: 0.5, 1.5 and 6 cores. */
  private static List<PodInput> workedExample() {
    return List.of(managed("A", 500, 500), managed("B", 1500, 1500), managed("C", 6000, 6000));
  }

  @ParameterizedTest(name = "allocatable {0}m")
  @CsvSource({
    "8000", // exactly booked: slack = 0
    "6000", // overbooked by unmanaged pressure: slack clamps to 0
    "0"
  })
  void everyManagedTargetIsItsRequestWhenTheNodeHasNoSlack(long allocatableMilli) {
    // given the worked example's pods on a node they fill or overfill
    // when
    NodeResult result =
        SlackPolicy.computeNode(allocatableMilli, workedExample(), PolicyConfig.DEFAULTS);
    // then slack is 0, F = 1, and every target is the request (pure cpu.weight sharing)
    assertThat(result.stats().slackMilli()).isZero();
    assertThat(result.stats().factor()).isEqualTo(1.0);
    assertThat(result.decisions())
        .extracting(Decision::targetLimitMilli, Decision::reason)
        .containsExactly(
            tuple(500L, Reason.UNCHANGED),
            tuple(1_500L, Reason.UNCHANGED),
            tuple(6_000L, Reason.UNCHANGED));
  }

  @ParameterizedTest(name = "request {0}m → {1}m")
  @CsvSource({
    "1005, 1010", // the quantization example: rounds half up to the grid
    "1004, 1004", // rounding down would go below the request: the request stays
    "1235, 1240",
    "1000, 1000",
  })
  void offGridRequestIsQuantizedWithinRequestAndCapWhenTheNodeHasNoSlack(
      long requestMilli, long expectedMilli) {
    // given an off-grid pod next to an unmanaged pod that books the rest of the node exactly
    List<PodInput> pods = List.of(managed("odd", requestMilli, 0), unmanaged("u", 1_000));
    // when
    NodeResult result =
        SlackPolicy.computeNode(requestMilli + 1_000, pods, PolicyConfig.DEFAULTS);
    // then step 4 applies as to every target: nearest 10m, never below the request
    assertThat(result.stats().slackMilli()).isZero();
    assertThat(result.decisions()).containsExactly(
        new Decision("odd", expectedMilli, true, Reason.SET));
  }

  @Test
  void quantizingAtSlackZeroStepsBackBelowACap() {
    // given a 1005m pod capped at 1007m by its max-cpu: 1010m would cross the cap
    List<PodInput> pods =
        List.of(new PodInput("capped", 1_005, 0, true, 1_007), unmanaged("u", 3_000));
    // when
    NodeResult result = SlackPolicy.computeNode(4_000, pods, PolicyConfig.DEFAULTS);
    // then one quantum back is 1000m, below the request, so the request itself
    assertThat(result.decisions()).extracting(Decision::targetLimitMilli).containsExactly(1_005L);
  }

  @Test
  void quantizingWithoutManagedRequestsNeedsNoSlack() {
    // given M = 0: the only managed pod requests nothing, so nothing is shared
    List<PodInput> pods = List.of(managed("zero", 0, 0), unmanaged("u", 1_000));
    // when
    NodeResult result = SlackPolicy.computeNode(8_000, pods, PolicyConfig.DEFAULTS);
    // then its target is its (zero) request, already on the grid
    assertThat(result.stats().factor()).isEqualTo(1.0);
    assertThat(result.decisions()).extracting(Decision::targetLimitMilli).containsExactly(0L);
  }
}
