package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private final RetryPolicy policy = RetryPolicy.DEFAULT;

  @Test
  void withoutAServerWaitTheBackoffDoubles() {
    assertThat(policy.delayAfter(1, Duration.ZERO)).isEqualTo(Duration.ofMillis(200));
    assertThat(policy.delayAfter(2, Duration.ZERO)).isEqualTo(Duration.ofMillis(400));
  }

  @Test
  void theServersRetryAfterIsHonouredWhenLongerThanTheBackoff() {
    assertThat(policy.delayAfter(1, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.delayAfter(2, Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(400));
  }

  @Test
  void aServerWaitIsCapped() {
    assertThat(policy.delayAfter(1, Duration.ofHours(1))).isEqualTo(RetryPolicy.DEFAULT_MAX_SERVER_DELAY);
  }

  @Test
  void worstCaseRequestsPerChangeAsDocumented() {
    // live: each of 3 tries at most GET + resize PATCH, then the annotation PATCH and the event
    assertThat(policy.worstCaseRequests(false)).isEqualTo(8);
    // dry run: each try a GET, then the annotation and the event
    assertThat(policy.worstCaseRequests(true)).isEqualTo(5);
  }
}
