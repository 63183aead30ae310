package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node without slack: every managed limit is its request (design seed §5.4, last bullet;
 * policy.md, "slack = 0 ⇒ every target = request").
 */
class NoSlackTest {

  private static PodInput managed(String key, long requestMilli, long currentLimitMilli) {
    return new PodInput(key, requestMilli, currentLimitMilli, true, 0);
  }

  private static PodInput unmanaged(String key, long requestMilli) {
    return new PodInput(key, requestMilli, 0, false, 0);
  }

  /** The seed's worked example (§5.1): 0.5, 1.5 and 6 cores. */
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

  @Test
  void offGridRequestIsNotRoundedUpToTheQuantumWhenTheNodeHasNoSlack() {
    // given a 1235m pod (not a multiple of the 10m quantum) on an exactly booked node
    List<PodInput> pods = List.of(managed("odd", 1_235, 1_235), unmanaged("u", 2_765));
    // when
    NodeResult result = SlackPolicy.computeNode(4_000, pods, PolicyConfig.DEFAULTS);
    // then the target is the request, not 1240m: there is no slack to round into
    assertThat(result.decisions())
        .containsExactly(new Decision("odd", 1_235, false, Reason.UNCHANGED));
  }
}
