package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateBudgetTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void aNodeGetsOneSecondsWorthOfPatchesThenWaitsForTokens() {
    // given 2 patches/s per node, a generous global budget
    RateBudget budget = new RateBudget(new RateLimits(2, 1000, 1000), now::get);
    // when / then: a burst of 2, then nothing
    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    assertThat(budget.tryAcquire("n1", 1)).isFalse();
    assertThat(budget.nanosUntilAvailable("n1", 1)).isEqualTo(Duration.ofMillis(500).toNanos());
    // after half a second, one more
    advance(Duration.ofMillis(500));
    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    assertThat(budget.tryAcquire("n1", 1)).isFalse();
  }

  @Test
  void aNodeOutOfTokensDoesNotHoldUpAnotherNode() {
    RateBudget budget = new RateBudget(new RateLimits(1, 1000, 1000), now::get);
    assertThat(budget.tryAcquire("busy", 1)).isTrue();
    assertThat(budget.tryAcquire("busy", 1)).isFalse();
    assertThat(budget.tryAcquire("quiet", 1)).isTrue();
  }

  @Test
  void theGlobalBudgetCountsRequestsAcrossNodes() {
    // given clientQps 10, clientBurst 8; a try costs 4 requests
    RateBudget budget = new RateBudget(new RateLimits(100, 10, 8), now::get);
    assertThat(budget.tryAcquire("n1", 4)).isTrue();
    assertThat(budget.tryAcquire("n2", 4)).isTrue();
    // then a third node must wait 400 ms for 4 tokens at 10/s
    assertThat(budget.tryAcquire("n3", 4)).isFalse();
    assertThat(budget.nanosUntilAvailable("n3", 4)).isEqualTo(Duration.ofMillis(400).toNanos());
    advance(Duration.ofMillis(400));
    assertThat(budget.tryAcquire("n3", 4)).isTrue();
  }

  @Test
  void aRefusedTryTakesNoTokens() {
    // given a node with a token but an empty global bucket
    RateBudget budget = new RateBudget(new RateLimits(1, 1, 1), now::get);
    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    advance(Duration.ofSeconds(1));
    assertThat(budget.tryAcquire("n2", 1)).isTrue(); // global empty again, n2 used its token
    // when n3 is refused for want of global tokens
    assertThat(budget.tryAcquire("n3", 1)).isFalse();
    // then its own token is still there once the global bucket refills
    advance(Duration.ofSeconds(1));
    assertThat(budget.tryAcquire("n3", 1)).isTrue();
  }

  @Test
  void newLimitsFromTheConfigTakeEffectAtOnce() {
    RateBudget budget = new RateBudget(new RateLimits(10, 1000, 1000), now::get);
    budget.update(new RateLimits(1, 1000, 1000));
    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    assertThat(budget.tryAcquire("n1", 1)).isFalse();
    assertThat(budget.limits().perNodePatchesPerSecond()).isEqualTo(1);
  }

  @Test
  void idleNodesAreForgottenOnceTheirBucketIsFullAgain() {
    RateBudget budget = new RateBudget(new RateLimits(5, 1000, 1000), now::get);
    budget.tryAcquire("n1", 1);
    budget.forgetIdleNodes();
    assertThat(budget.trackedNodes()).isEqualTo(1);
    advance(Duration.ofSeconds(1));
    budget.forgetIdleNodes();
    assertThat(budget.trackedNodes()).isZero();
  }
}
