package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/design/policy.md, "Target for each managed pod", step 1: bursts are rounded half away from zero. */
class RoundingTest {

  @ParameterizedTest(name = "round({0}) = {1}")
  @CsvSource({
    "0.0, 0",
    "0.49999999999999994, 0", // the largest double below 0.5: floor(x + 0.5) gets this wrong
    "0.5, 1",
    "1.5, 2",
    "2.5, 3",
    "2.4999999, 2",
    "-0.5, -1",
    "-2.5, -3",
    "-0.49999999999999994, 0",
    "4503599627370497.0, 4503599627370497", // 2^52 + 1: x + 0.5 rounds to even in double
  })
  void roundsHalfAwayFromZeroAndNothingElse(double value, long expected) {
    assertThat(SlackPolicy.roundHalfAwayFromZero(value)).isEqualTo(expected);
  }
}
