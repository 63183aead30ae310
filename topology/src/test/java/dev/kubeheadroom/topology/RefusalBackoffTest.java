package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.topology.booking.RefusalBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RefusalBackoffTest {
  static final Duration BASE = Duration.ofSeconds(60);

  @Test
  void theWaitDoublesFromTheBaseToTheCapLessAtMostAFifthOfJitter() {
    for (String uid : new String[] {"a", "uid-web-1", "0f6c-ü"}) {
      for (int n = 1; n <= 40; n++) {
        long nominal = BASE.toMillis() * Math.min(RefusalBackoff.CAP_MULTIPLE, 1L << Math.min(n - 1, 30));
        assertThat(RefusalBackoff.delay(uid, n, BASE).toMillis()).as("%s #%d", uid, n)
            .isBetween(nominal * 4 / 5, nominal);
      }
    }
    assertThat(RefusalBackoff.delay("a", 0, BASE)).isEqualTo(RefusalBackoff.delay("a", 1, BASE));
    assertThat(RefusalBackoff.delay("a", Integer.MAX_VALUE, BASE).toMillis())
        .isLessThanOrEqualTo(BASE.toMillis() * RefusalBackoff.CAP_MULTIPLE);
  }

  @Test
  void theJitterIsAFunctionOfTheUidAndTheAttemptOnly() {
    assertThat(RefusalBackoff.delay("uid-web-1", 3, BASE))
        .isEqualTo(RefusalBackoff.delay("uid-web-1", 3, BASE));
    long distinct = java.util.stream.IntStream.range(0, 50)
        .mapToObj(i -> RefusalBackoff.delay("uid-" + i, 1, BASE)).distinct().count();
    assertThat(distinct).as("pods refused together come back spread out").isGreaterThan(40);
  }

  @Test
  void aHugeBaseSaturatesInsteadOfOverflowing() {
    Duration huge = Duration.ofMillis(Long.MAX_VALUE / 2);
    assertThat(RefusalBackoff.delay("a", 9, huge).toMillis()).isPositive();
  }

  @Test
  void aDeferredResizeIsWaitedForAnInfeasibleOneBackedOffFrom() {
    // a kubelet from v1.36 defers requests above allocatable that older ones called Infeasible:
    // either answer must land right
    assertThat(RefusalBackoff.refuses(OutcomeResult.DEFERRED)).isFalse();
    assertThat(RefusalBackoff.refuses(OutcomeResult.INFEASIBLE)).isTrue();
  }
}
