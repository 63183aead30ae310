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

  // clientQPS is the cluster-wide budget (design §6.2c): two replicas splitting the decisions
  // partitions 3 + 3 together send what one replica alone would, bursts included.
  @Test
  void replicasSharingThePartitionsKeepTheGroupToTheClientQps() {
    RateLimits limits = new RateLimits(1000, 50, 100);
    RateBudget alone = new RateBudget(limits, now::get);
    RateBudget first = new RateBudget(limits, now::get);
    RateBudget second = new RateBudget(limits, now::get);
    first.share(GroupShare.of(3, 6));
    second.share(GroupShare.of(3, 6));

    int aloneGranted = 0;
    int groupGranted = 0;
    for (int tick = 0; tick < 10_000; tick++) { // 10 s in 1 ms steps, every replica always trying
      for (int node = 0; node < 5; node++) {
        aloneGranted += alone.tryAcquire("n" + node, 1) ? 1 : 0;
        groupGranted += first.tryAcquire("n" + node, 1) ? 1 : 0;
        groupGranted += second.tryAcquire("m" + node, 1) ? 1 : 0;
      }
      advance(Duration.ofMillis(1));
    }

    // 10 s at 50/s plus the burst of 100, for the pair as for one replica alone
    assertThat(aloneGranted).isBetween(595, 601);
    assertThat(groupGranted).isBetween(595, 601);
  }

  @Test
  void aReplicaOwningNoPartitionSendsNothing() {
    RateBudget budget = new RateBudget(new RateLimits(10, 50, 100), now::get);
    budget.share(GroupShare.of(0, 6));

    assertThat(budget.tryAcquire("n1", 1)).isFalse();
    assertThat(budget.nanosUntilAvailable("n1", 1)).isEqualTo(Long.MAX_VALUE);
    advance(Duration.ofSeconds(10));
    assertThat(budget.tryAcquire("n1", 1)).isFalse();
  }

  @Test
  void theShareOutlivesAConfigChange() {
    RateBudget budget = new RateBudget(new RateLimits(1000, 50, 100), now::get);
    budget.share(0.25);
    budget.update(new RateLimits(1000, 40, 8)); // a quarter: 10/s, burst 2

    assertThat(budget.tryAcquire("n1", 1)).isTrue();
    assertThat(budget.tryAcquire("n2", 1)).isTrue();
    assertThat(budget.tryAcquire("n3", 1)).isFalse();
    assertThat(budget.nanosUntilAvailable("n3", 1)).isEqualTo(Duration.ofMillis(100).toNanos());
  }

  // A replica's share of a small burst can be smaller than one try: it waits for a full bucket,
  // then pays the whole try (charging only the capacity sent requests/capacity times the rate).
  @Test
  void aTryCostingMoreThanTheSharedBurstStillPaysEveryRequest() {
    // given half of 8 requests/s, burst 4: 4/s and a bucket of 2; a live patch costs 4
    RateBudget budget = new RateBudget(new RateLimits(1000, 8, 4), now::get);
    budget.share(0.5);
    int requests = 0;
    for (int tick = 0; tick < 10_000; tick++) { // 10 s in 1 ms steps, always trying
      requests += budget.tryAcquire("n" + tick, 4) ? 4 : 0;
      advance(Duration.ofMillis(1));
    }
    // then 10 s at 4/s, plus the one try a full bucket lets through
    assertThat(requests).isBetween(40, 44);
    // and after a try the bucket is in debt: the next waits for the debt and a full bucket
    RateBudget fresh = new RateBudget(new RateLimits(1000, 8, 4), now::get);
    fresh.share(0.5);
    assertThat(fresh.tryAcquire("n1", 4)).isTrue();
    assertThat(fresh.nanosUntilAvailable("n2", 4)).isEqualTo(Duration.ofSeconds(1).toNanos());
  }
}
