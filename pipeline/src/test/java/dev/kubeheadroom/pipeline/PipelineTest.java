package dev.kubeheadroom.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.ops.HeadroomMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PipelineTest {
  private final List<String> log = new ArrayList<>();
  private final FakeSpec a = new FakeSpec("a", log);
  private final FakeSpec b = new FakeSpec("b", log);
  private final MutableClock clock = new MutableClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final StageContext context = new StageContext(registry, new HeadroomMetrics(registry), clock);
  private static final RestartPolicy TWICE = new RestartPolicy(2, Duration.ofMinutes(10), Duration.ofSeconds(1),
      Duration.ofSeconds(4));

  @Test
  void startsInOrderAndClosesInReverse() {
    Pipeline p = Pipeline.start(context, List.of(a, b));
    assertThat(p.ready()).isTrue();
    assertThat(p.names()).containsExactly("a", "b");
    p.close();
    assertThat(log).containsExactly("start a", "start b", "close b", "close a");
    assertThat(p.ready()).isFalse();
  }

  @Test
  void aStageThatCannotStartClosesThoseStarted() {
    b.failNextStart = new IllegalStateException("no port");
    assertThatThrownBy(() -> Pipeline.start(context, List.of(a, b))).hasMessage("no port");
    assertThat(log).containsExactly("start a", "close a");
  }

  @Test
  void underExitAFailureIsGivenUpOnAtOnce() {
    Pipeline p = Pipeline.start(context, RestartPolicy.EXIT, List.of(a, b));
    a.fail();
    Optional<StageFailure> giveUp = p.supervise();
    assertThat(giveUp).hasValueSatisfying(f -> assertThat(f.stage()).isEqualTo("a"));
    assertThat(a.starts()).isEqualTo(1);
  }

  @Test
  void aFailedStageIsRestartedAfterItsBackoffAndTheOthersKeepRunning() {
    Pipeline p = Pipeline.start(context, TWICE, List.of(a, b));
    a.fail();
    assertThat(p.supervise()).isEmpty();
    assertThat(log).containsExactly("start a", "start b", "close a");
    assertThat(p.ready("a")).isFalse();
    assertThat(p.ready("b")).isTrue();

    clock.advance(Duration.ofMillis(999));
    assertThat(p.supervise()).isEmpty();
    assertThat(a.starts()).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(p.supervise()).isEmpty();
    assertThat(a.starts()).isEqualTo(2);
    assertThat(p.ready()).isTrue();
    assertThat(registry.get(Pipeline.RESTARTS).tag("stage", "a").counter().count()).isEqualTo(1.0);
  }

  @Test
  void theBackoffDoublesAndTheStageIsGivenUpOnOnceItsRestartsAreUsed() {
    Pipeline p = Pipeline.start(context, TWICE, List.of(a));
    a.fail();
    p.supervise();
    clock.advance(Duration.ofSeconds(1));
    p.supervise();
    a.fail();
    p.supervise();
    clock.advance(Duration.ofMillis(1999));
    p.supervise();
    assertThat(a.starts()).as("second backoff is 2 s").isEqualTo(2);
    clock.advance(Duration.ofMillis(1));
    p.supervise();
    assertThat(a.starts()).isEqualTo(3);

    a.fail();
    assertThat(p.supervise()).hasValueSatisfying(f -> assertThat(f.cause()).hasMessage("a broke"));
  }

  @Test
  void restartsOlderThanTheWindowNoLongerCount() {
    Pipeline p = Pipeline.start(context, TWICE, List.of(a));
    for (int i = 0; i < 4; i++) {
      a.fail();
      assertThat(p.supervise()).as("failure %s", i).isEmpty();
      clock.advance(Duration.ofMinutes(6));
      p.supervise();
    }
    assertThat(a.starts()).isEqualTo(5);
  }

  @Test
  void aRestartedStageReportsItsOwnGaugesNotTheClosedInstances() {
    Pipeline p = Pipeline.start(context, TWICE, List.of(a));
    assertThat(registry.get("headroom.a.instance").gauge().value()).isEqualTo(1.0);
    a.fail();
    p.supervise();
    clock.advance(Duration.ofSeconds(1));
    p.supervise();
    assertThat(registry.get("headroom.a.instance").gauge().value()).isEqualTo(2.0);
  }

  @Test
  void aStageCanBeStoppedAndStartedAlone() {
    Pipeline p = Pipeline.start(context, List.of(a, b));
    p.stop("a");
    assertThat(p.stage("a")).isEmpty();
    assertThat(p.describe()).isEqualTo("a stopped, b ready");
    assertThat(p.supervise()).as("a stopped stage is not a failed one").isEmpty();
    p.start("a");
    assertThat(p.ready()).isTrue();
    assertThat(log).containsExactly("start a", "start b", "close a", "start a");
  }

  @Test
  void awaitReadyFailsFastOnAFailedStage() throws Exception {
    Pipeline p = Pipeline.start(context, List.of(a));
    p.awaitReady(Duration.ofSeconds(1));
    a.fail();
    assertThatThrownBy(() -> p.awaitReady(Duration.ofSeconds(1))).hasMessageContaining("stage a failed");
  }

  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
