package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StallWatchdogTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final StallWatchdog watchdog = new StallWatchdog(Duration.ofSeconds(60), now::get);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void noProgressForLongerThanTheBoundWhileKafkaAnswersIsAStall() {
    advance(Duration.ofSeconds(60));
    assertThat(watchdog.stalled()).as("at the bound").isEmpty();
    advance(Duration.ofSeconds(1));
    assertThat(watchdog.stalled()).hasValue(Duration.ofSeconds(61));
  }

  @Test
  void progressStartsTheClockAgain() {
    advance(Duration.ofSeconds(50));
    watchdog.progressed();
    advance(Duration.ofSeconds(50));
    assertThat(watchdog.stalled()).isEmpty();
  }

  @Test
  void aKafkaOutageIsNotHeldAgainstTheTopologyTheClockStartsWhenKafkaAnswers() {
    // Kafka away for 5 minutes, seen by every probe
    for (int i = 0; i < 60; i++) {
      advance(Duration.ofSeconds(5));
      watchdog.kafkaAway();
    }
    assertThat(watchdog.stalled()).isEmpty();
    // back, and the topology never works again: a stall one bound after Kafka answered
    advance(Duration.ofSeconds(59));
    assertThat(watchdog.stalled()).isEmpty();
    advance(Duration.ofSeconds(2));
    assertThat(watchdog.stalled()).isPresent();
  }
}
