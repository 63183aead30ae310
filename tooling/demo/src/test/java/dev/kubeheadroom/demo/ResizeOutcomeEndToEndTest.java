package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused resize through the whole pipeline (docs/design/headroom-design.txt §6.4). Every refusal's classification
 * (403 quota / RBAC, 404, 409, 422, 500) is tested in the actuator module ({@code ActuatorTest});
 * here the quota case goes round the loop: actuator → outcome on Kafka → topology backoff → a
 * retry after the backoff period.
 */
class ResizeOutcomeEndToEndTest {
  private static final String NS = "team-r";
  /** One knob off the defaults: a 60 s backoff would make this test a minute longer. */
  private static final Duration BACKOFF = Duration.ofSeconds(6);

  @Test
  void apiAnswersEndInTheRightOutcomeAndMetric(@TempDir Path dir) {
    try (LivePipeline p = LivePipeline.start(dir, Map.of("backoffPeriod", BACKOFF.toSeconds() + "s"))) {
      // given a namespace whose limits.cpu quota refuses the next raise of pod "web"
      p.managedNamespace(NS);
      p.node("r1", "16");
      p.api.faults().next(1, RequestMatcher.resizeOf(NS, "web"),
          Fault.forbiddenByQuota("compute", "limits.cpu=14", "limits.cpu=2", "limits.cpu=8"));

      // when the pod lands on an empty node and Headroom raises its limit
      p.pod(NS, "web", "r1", "2");

      // then the raise is refused once, a quota-denied outcome goes to Kafka and is counted ...
      await("a quota-denied outcome").atMost(LivePipeline.CONVERGE).until(() ->
          p.outcomes().stream().anyMatch(o -> o.name().equals("web") && o.result() == OutcomeResult.QUOTA_DENIED));
      assertThat(p.resizesCounted(OutcomeResult.QUOTA_DENIED)).isEqualTo(1.0);
      // ... the pod backs off, then a retry after the backoff period succeeds
      p.awaitLimits(Map.of(NS + "/web", 16_000L));
      List<RequestJournal.Entry> resizes = p.awaitRequests(RequestMatcher.resizeOf(NS, "web"), es -> es.size() >= 2);
      assertThat(resizes).extracting(RequestJournal.Entry::code).containsExactly(403, 200);
      // (a first refusal waits the backoff period less a jitter of up to a fifth: RefusalBackoff)
      assertThat(Duration.between(resizes.get(0).at(), resizes.get(1).at()))
          .isGreaterThanOrEqualTo(BACKOFF.multipliedBy(4).dividedBy(5));
      List<ResizeOutcome> outcomes = p.outcomes().stream().filter(o -> o.name().equals("web")).toList();
      assertThat(outcomes).extracting(ResizeOutcome::result)
          .containsExactly(OutcomeResult.QUOTA_DENIED, OutcomeResult.APPLIED);
      assertThat(outcomes.get(0).message()).contains("exceeded quota: compute");
      assertThat(p.resizesCounted(OutcomeResult.APPLIED)).isEqualTo(1.0);
    }
  }
}
