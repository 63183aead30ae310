package dev.kubeheadroom.cli.throttling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** What the suggestion promises, for any usage Prometheus can answer (200 tries each: seconds of verify). */
class ThrottleWhatIfProperties {

  @Property(tries = 200)
  void theSuggestionCoversTheUsageOfAtLeast99PercentOfTheSteps(
      @ForAll @Size(min = 1, max = 300) List<@DoubleRange(min = 0, max = 64) Double> usage,
      @ForAll @LongRange(min = 0, max = 1000) long quantum) {
    ContainerWhatIf c = ThrottleWhatIf.assess(new ContainerSeries("c", null, null, usage), null, null, quantum);

    long covered = usage.stream().filter(u -> Math.round(u * 1000) <= c.suggestedMilli()).count();
    assertThat(covered).isGreaterThanOrEqualTo((long) Math.ceil(0.99 * usage.size()));
  }

  @Property(tries = 200)
  void theSuggestionIsTheLeastMultipleOfTheQuantumAtOrAboveTheP99(
      @ForAll @Size(min = 1, max = 300) List<@DoubleRange(min = 0, max = 64) Double> usage,
      @ForAll @LongRange(min = 1, max = 1000) long quantum) {
    ContainerWhatIf c = ThrottleWhatIf.assess(new ContainerSeries("c", null, null, usage), null, null, quantum);

    assertThat(c.suggestedMilli() % quantum).isZero();
    assertThat(c.suggestedMilli()).isGreaterThanOrEqualTo(c.usage().p99Milli())
        .isLessThan(c.usage().p99Milli() + quantum);
  }

  @Property(tries = 200)
  void quantilesAreOrderedAndEachIsAStepsUsage(
      @ForAll @Size(min = 1, max = 300) List<@DoubleRange(min = 0, max = 64) Double> usage) {
    Usage u = ThrottleWhatIf.usage(usage);
    List<Long> milli = usage.stream().map(x -> Math.round(x * 1000)).toList();

    assertThat(u.p50Milli()).isLessThanOrEqualTo(u.p95Milli());
    assertThat(u.p95Milli()).isLessThanOrEqualTo(u.p99Milli());
    assertThat(u.p99Milli()).isLessThanOrEqualTo(u.maxMilli());
    assertThat(milli).contains(u.p50Milli(), u.p95Milli(), u.p99Milli(), u.maxMilli());
    assertThat(u.maxMilli()).isEqualTo(Collections.max(milli));
    assertThat(u.steps()).isEqualTo(usage.size());
  }

  @Property(tries = 200)
  void theOrderOfTheStepsDoesNotMatter(
      @ForAll @Size(min = 1, max = 100) List<@DoubleRange(min = 0, max = 64) Double> usage, @ForAll long seed) {
    List<Double> shuffled = new ArrayList<>(usage);
    Collections.shuffle(shuffled, new Random(seed));

    assertThat(ThrottleWhatIf.usage(shuffled)).isEqualTo(ThrottleWhatIf.usage(usage));
  }

  @Property(tries = 200)
  void usingMoreInEveryStepNeverLowersTheSuggestion(
      @ForAll @Size(min = 1, max = 100) List<@DoubleRange(min = 0, max = 32) Double> usage,
      @ForAll @DoubleRange(min = 0, max = 32) double more) {
    List<Double> busier = usage.stream().map(u -> u + more).toList();

    assertThat(ThrottleWhatIf.assess(new ContainerSeries("c", null, null, busier), null, null, 10).suggestedMilli())
        .isGreaterThanOrEqualTo(
            ThrottleWhatIf.assess(new ContainerSeries("c", null, null, usage), null, null, 10).suggestedMilli());
  }

  @Property(tries = 200)
  void theThrottledRatioIsAShareOrNothing(
      @ForAll @DoubleRange(min = -1, max = 1e9) double throttled, @ForAll @DoubleRange(min = -1, max = 1e9) double periods) {
    Double ratio = ThrottleWhatIf.ratio(throttled, periods);

    if (periods <= 0) {
      assertThat(ratio).isNull();
    } else {
      assertThat(ratio).isBetween(0.0, 1.0);
    }
  }

  @Property(tries = 200)
  void aSuggestionAboveTheLimitAlwaysSaysTheLimitWasTooLow(
      @ForAll @Size(min = 1, max = 50) List<@DoubleRange(min = 0, max = 8) Double> usage,
      @ForAll @LongRange(min = 1, max = 8000) long limit,
      @ForAll @DoubleRange(min = 0, max = 1) double throttledShare) {
    ContainerWhatIf c = ThrottleWhatIf.assess(new ContainerSeries("c", throttledShare * 600, 600.0, usage), limit,
        null, 10);

    assertThat(c.verdict().equals("limit-too-low")).isEqualTo(c.suggestedMilli() > limit);
    assertThat(c.lowerBound()).isEqualTo(throttledShare >= ThrottleWhatIf.THROTTLED_RATIO);
  }
}
