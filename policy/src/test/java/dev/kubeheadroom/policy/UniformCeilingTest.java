package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Worked examples of {@link UniformCeiling} (docs/design/headroom-design.txt §11.6). */
class UniformCeilingTest {

  @Test
  void equalWorkersGetTheBusiestNodesLimit() {
    // given three 1-core workers whose nodes would give 4, 2.5 and 6 cores
    List<GangRatio> gang = List.of(new GangRatio(4000, 1000), new GangRatio(2500, 1000), new GangRatio(6000, 1000));
    // when
    long[] targets = UniformCeiling.targets(gang, 10);
    // then all run at 2.5 cores
    assertThat(targets).containsExactly(2500, 2500, 2500);
  }

  @Test
  void aLargerMemberScalesByTheSameRatio() {
    // given a 2-core leader (own 8 cores) and 500m workers (own 1.5 and 3 cores): the ratio is 3
    List<GangRatio> gang = List.of(new GangRatio(8000, 2000), new GangRatio(1500, 500), new GangRatio(3000, 500));
    // when
    long[] targets = UniformCeiling.targets(gang, 10);
    // then each gets three times its request
    assertThat(targets).containsExactly(6000, 1500, 1500);
  }

  @Test
  void aScaledTargetRoundsDownToTheQuantum() {
    // given a ratio of 1.333… (4000/3000) applied to a 1000m member whose own node gives 5000m
    long target = UniformCeiling.target(1000, 5000, new GangRatio(4000, 3000), 10);
    // then 1333.3 → 1330 (rounding up would exceed the ratio)
    assertThat(target).isEqualTo(1330);
  }

  @Test
  void anOffGridCeilingRoundsDownForTheLimitingMemberToo() {
    // given two 1-core workers, one capped at 1234m (its max-cpu), the other's node giving 3 cores
    List<GangRatio> gang = List.of(new GangRatio(1234, 1000), new GangRatio(3000, 1000));
    // then both get 1230m: one limit across the gang, on the grid
    assertThat(UniformCeiling.targets(gang, 10)).containsExactly(1230, 1230);
  }

  @Test
  void aGangOfOneIsNoGang() {
    assertThat(UniformCeiling.targets(List.of(new GangRatio(3215, 700)), 10)).containsExactly(3215);
    assertThat(UniformCeiling.target(700, 3215, null, 10)).isEqualTo(3215);
  }

  @Test
  void theDeadbandAppliesToTheGangTarget() {
    // given a member at 2000m whose node would give 4000m, and a gang ratio of 2.1
    PodInput pod = new PodInput("w", 1000, 2000, true, 0);
    Decision own = new Decision("w", 4000, true, Reason.GROW);
    // when
    Decision d = UniformCeiling.apply(pod, own, new GangRatio(2100, 1000), PolicyConfig.DEFAULTS);
    // then 2100m is within the 10% grow deadband of 2000m: not applied
    assertThat(d).isEqualTo(new Decision("w", 2100, false, Reason.WITHIN_DEADBAND));
  }

  @Test
  void ratiosCompareExactlyAtAnyQuantity() {
    GangRatio big = new GangRatio(Long.MAX_VALUE, Long.MAX_VALUE - 1);
    GangRatio one = new GangRatio(5, 5);
    assertThat(big.compareTo(one)).isPositive();
    assertThat(new GangRatio(4000, 2000).compareTo(new GangRatio(2000, 1000))).isZero();
    assertThat(UniformCeiling.target(Long.MAX_VALUE / 2, Long.MAX_VALUE, one, 10)).isEqualTo(Long.MAX_VALUE / 2);
  }
}
