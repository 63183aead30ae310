package dev.kubeheadroom.cli.throttling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.cli.throttling.RequestWhatIf.Need;
import java.util.List;
import java.util.function.LongUnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The request that would cover every container's suggestion, for a given request → target function. */
class RequestWhatIfTest {
  static final List<Need> NEEDS = List.of(new Need(400, 950), new Need(100, 120));

  @Test
  void thePodNeedsTheLimitThatCoversItsNeediestContainerAtTodaysProportions() {
    // app has 4/5 of the request: a pod limit L gives it 0.8·L, so L ≥ 950 / 0.8 = 1187.5.
    RequestWhatIf r = RequestWhatIf.of(500, NEEDS, 1000, request -> 3 * request);

    assertThat(r.limitNeededMilli()).isEqualTo(1188);
    assertThat(r.requestNeededMilli()).isEqualTo(500); // 3 × 500 already covers it
    assertThat(r.targetAtNeededMilli()).isEqualTo(1500);
  }

  @Test
  void theSmallestRequestThatReachesTheNeedIsFound() {
    RequestWhatIf r = RequestWhatIf.of(500, NEEDS, 1000, request -> 2 * request);

    assertThat(r.requestNeededMilli()).isEqualTo(594); // 2 × 594 = 1188
    assertThat(r.targetAtNeededMilli()).isEqualTo(1188);
  }

  @Test
  void noRequestThatFitsTheNodeIsNull() {
    RequestWhatIf r = RequestWhatIf.of(500, NEEDS, 550, request -> 2 * request);

    assertThat(r.requestNeededMilli()).isNull();
    assertThat(r.targetAtNeededMilli()).isNull();
    assertThat(r.limitNeededMilli()).isEqualTo(1188);
  }

  @Test
  void withoutARequestOrANeedThereIsNothingToSay() {
    assertThat(RequestWhatIf.of(0, NEEDS, 1000, request -> request)).isNull();
    assertThat(RequestWhatIf.of(500, List.of(), 1000, request -> request)).isNull();
  }

  @Property(tries = 200)
  void theAnswerReachesTheNeedAndNoSmallerRequestDoes(
      @ForAll @LongRange(min = 1, max = 8000) long request, @ForAll @LongRange(min = 0, max = 16000) long slack,
      @ForAll @LongRange(min = 1, max = 40) long tenthsPerMilli, @ForAll @LongRange(min = 0, max = 4000) long floor,
      @ForAll @LongRange(min = 1, max = 64000) long cap, @ForAll @LongRange(min = 0, max = 16000) long suggested) {
    // Nondecreasing, like the policy's: request + share, floored, capped.
    LongUnaryOperator target = r -> Math.min(Math.max(r, cap), Math.max(r * tenthsPerMilli / 10, r + floor));
    List<Need> needs = List.of(new Need(request, suggested));

    RequestWhatIf r = RequestWhatIf.of(request, needs, request + slack, target);

    if (r.requestNeededMilli() == null) {
      assertThat(target.applyAsLong(request + slack)).isLessThan(r.limitNeededMilli());
    } else {
      assertThat(r.requestNeededMilli()).isBetween(request, request + slack);
      assertThat(target.applyAsLong(r.requestNeededMilli())).isEqualTo(r.targetAtNeededMilli())
          .isGreaterThanOrEqualTo(r.limitNeededMilli());
      if (r.requestNeededMilli() > request) {
        assertThat(target.applyAsLong(r.requestNeededMilli() - 1)).isLessThan(r.limitNeededMilli());
      }
    }
  }
}
