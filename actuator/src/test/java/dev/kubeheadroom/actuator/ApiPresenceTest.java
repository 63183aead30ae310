package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the actuator looks again at an API server that answered nothing, on a ticker the test moves. */
class ApiPresenceTest {
  private long now = 1_000;
  private final ApiPresence api = new ApiPresence(() -> now, Duration.ofSeconds(30));

  private void after(Duration d) {
    now += d.toNanos();
  }

  @Test
  void anUnansweredReadHoldsEveryChangeUntilTheNextLookAndAnAnswerEndsIt() {
    assertThat(api.answers()).isTrue();
    api.unanswered(new Verdict.Transient("503: down"));
    assertThat(api.answers()).isFalse();
    assertThat(api.mayTry()).isFalse();
    after(ApiPresence.LOOK_AGAIN.minusMillis(1));
    assertThat(api.mayTry()).isFalse();
    after(Duration.ofMillis(1));
    assertThat(api.mayTry()).as("the look is due").isTrue();
    assertThat(api.answers()).as("but not answering until a read is").isFalse();
    api.answered();
    assertThat(api.answers()).isTrue();
  }

  @Test
  void aLongerRetryAfterSetsTheLookCappedAtTheServerDelayCap() {
    api.unanswered(new Verdict.Transient("429: slow down", Duration.ofSeconds(5)));
    after(Duration.ofMillis(4_999));
    assertThat(api.mayTry()).isFalse();
    after(Duration.ofMillis(1));
    assertThat(api.mayTry()).isTrue();

    api.unanswered(new Verdict.Transient("503: down", Duration.ofMinutes(10)));
    after(Duration.ofSeconds(30));
    assertThat(api.mayTry()).as("a wait past the cap is capped").isTrue();
  }

  @Test
  void withNothingWaitingTheAwayMarkingIsDropped() {
    api.unanswered(new Verdict.Transient("no answer"));
    api.nothingWaits();
    assertThat(api.answers()).isTrue();
    assertThat(api.mayTry()).isTrue();
  }
}
