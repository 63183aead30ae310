package dev.kubeheadroom.cli.throttling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if's arithmetic on figures small enough to check by hand. */
class ThrottleWhatIfTest {
  private static List<Double> cores(double... values) {
    List<Double> list = new ArrayList<>();
    for (double v : values) {
      list.add(v);
    }
    return list;
  }

  private static ContainerWhatIf assess(Double throttled, Double periods, List<Double> usage, Long limit) {
    return ThrottleWhatIf.assess(new ContainerSeries("app", throttled, periods, usage), limit, null, 10);
  }

  @Test
  void quantilesAreNearestRankOverTheSteps() {
    List<Double> usage = new ArrayList<>();
    for (int i = 100; i >= 1; i--) { // 1m … 100m, in any order
      usage.add(i / 1000.0);
    }
    Usage u = ThrottleWhatIf.usage(usage);

    assertThat(u).isEqualTo(new Usage(50, 95, 99, 100, 100));
  }

  @Test
  void withFewStepsTheP99IsTheMax() {
    // ceil(0.99 × 10) = 10th of 10: one step in ten above the p99 would be 10%, not 1%.
    Usage u = ThrottleWhatIf.usage(cores(0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9));

    assertThat(u.p50Milli()).isEqualTo(100);
    assertThat(u.p99Milli()).isEqualTo(900);
  }

  @Test
  void theSuggestionIsTheP99RoundedToTheMillicoreThenUpToTheQuantum() {
    assertThat(assess(0.0, 600.0, cores(0.9501), 2000L).suggestedMilli()).isEqualTo(950); // 950.1m → 950m: kept
    assertThat(assess(0.0, 600.0, cores(0.9506), 2000L).suggestedMilli()).isEqualTo(960); // 950.6m → 951m → 960m
    assertThat(assess(0.0, 600.0, cores(0.941), 2000L).suggestedMilli()).isEqualTo(950); // 941m → 950m
    assertThat(ThrottleWhatIf.assess(new ContainerSeries("app", null, null, cores(0.9506)), null, null, 0)
        .suggestedMilli()).isEqualTo(951); // no quantum
  }

  @Test
  void theThrottledRatioIsThrottledOverAllPeriodsAndNeedsBoth() {
    assertThat(assess(150.0, 600.0, cores(0.5), 1000L).throttledRatio()).isEqualTo(0.25);
    assertThat(assess(null, 600.0, cores(0.5), 1000L).throttledRatio()).isNull();
    assertThat(assess(0.0, null, cores(0.5), 1000L).throttledRatio()).isNull();
    assertThat(assess(0.0, 0.0, cores(0.5), 1000L).throttledRatio()).isNull(); // no period ran
    // Each increase() is extrapolated on its own: throttled can come out a hair above all periods.
    assertThat(assess(600.2, 600.0, cores(0.5), 1000L).throttledRatio()).isEqualTo(1.0);
  }

  @Test
  void aContainerThrottledAboveItsLimitNeedsMore() {
    ContainerWhatIf c = assess(240.0, 600.0, cores(0.95, 0.95, 0.95), 800L);

    assertThat(c.verdict()).isEqualTo("limit-too-low");
    assertThat(c.suggestedMilli()).isEqualTo(950);
    assertThat(c.lowerBound()).isTrue(); // throttled: its usage was cut, it wanted more
  }

  @Test
  void aThrottledContainerUsingItsWholeLimitIsAtTheLimit() {
    ContainerWhatIf c = assess(360.0, 600.0, cores(0.99, 0.98, 1.0), 1000L);

    assertThat(c.verdict()).isEqualTo("at-limit");
    assertThat(c.suggestedMilli()).isEqualTo(1000);
    assertThat(c.lowerBound()).isTrue();
  }

  @Test
  void aThrottledContainerWellUnderItsLimitIsThrottledInBursts() {
    ContainerWhatIf c = assess(60.0, 600.0, cores(0.3, 0.4, 0.35), 1000L);

    assertThat(c.verdict()).isEqualTo("throttled-in-bursts");
    assertThat(c.lowerBound()).isTrue();
  }

  @Test
  void underOnePercentThrottledWithTheP99UnderTheLimitIsCovered() {
    ContainerWhatIf c = assess(5.0, 600.0, cores(0.3, 0.4, 0.95), 1000L);

    assertThat(c.verdict()).isEqualTo("covered");
    assertThat(c.lowerBound()).isFalse();
  }

  @Test
  void withoutALimitNothingThrottlesButTheSuggestionStands() {
    ContainerWhatIf c = assess(null, null, cores(0.3, 0.4), null);

    assertThat(c.verdict()).isEqualTo("no-limit");
    assertThat(c.suggestedMilli()).isEqualTo(400);
  }

  @Test
  void withoutUsageThereIsNoSuggestion() {
    ContainerWhatIf c = assess(0.0, 600.0, cores(Double.NaN, Double.POSITIVE_INFINITY), 1000L);

    assertThat(c.verdict()).isEqualTo("no-data");
    assertThat(c.usage()).isNull();
    assertThat(c.suggestedMilli()).isNull();
    assertThat(c.lowerBound()).isFalse();
  }

  @Test
  void roundingUpSaturatesInsteadOfOverflowing() {
    assertThat(ThrottleWhatIf.roundUp(Long.MAX_VALUE - 3, 10)).isEqualTo(Long.MAX_VALUE);
    assertThat(ThrottleWhatIf.roundUp(0, 10)).isZero();
  }
}
