package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.FaultInjector;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The API server answers every request 503 while decisions arrive, then answers again (the fault
 * suite's "API server down" row, in one process). The changes are not given up as {@code error}
 * (the topology would back those pods off for its {@code backoffPeriod}, 60 s, from then): the
 * actuator waits, not ready, trying one change per {@link ApiPresence#LOOK_AGAIN}, and applies
 * them all within a look of the API server's return.
 */
@WithKafka
class ApiOutageActuatorTest {
  private static final Duration OUTAGE = Duration.ofSeconds(5);

  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  @Test
  void changesMetByAnOutageWaitForTheApiServerAndApplyWithinALookOfItsReturn() throws Exception {
    List<Pod> pods = List.of(h.pod("web-1", "n1", "app=500m/1"), h.pod("web-2", "n1", "app=500m/1"),
        h.pod("web-3", "n2", "app=500m/1"));
    Actuator actuator = h.start();

    // given: the API server answers nothing but 503
    FaultInjector.Rule down = h.api.faults().always(RequestMatcher.any(),
        new Fault.Respond(503, "ServiceUnavailable", "the API server is down (injected)"));
    Instant outageFrom = Instant.now();
    for (Pod pod : pods) {
      h.produce(decision(pod.getSpec().getNodeName(), false,
          change(pod.getMetadata().getUid(), NS, pod.getMetadata().getName(), 1000, 2000)));
    }

    // then: not ready, not failed (an outcome written meanwhile would be among the three below)
    await().atMost(ActuatorHarness.WAIT).until(() -> !actuator.ready());
    Thread.sleep(OUTAGE.toMillis());
    assertThat(actuator.failure()).isEmpty();
    // and one change per look was tried, not every change on its own backoff
    Duration outage = Duration.between(outageFrom, Instant.now());
    long reads = h.api.requests().countSince(outageFrom, RequestMatcher.of(Verb.GET, "pods"));
    assertThat(reads).isLessThanOrEqualTo(outage.toMillis() / ApiPresence.LOOK_AGAIN.toMillis() + 2);

    // when: the API server answers again
    down.remove();
    Instant healed = Instant.now();

    // then: every change is applied (none given up as an error before, none resized twice),
    // the last resize within a look and a round of the return (by the double's clock: reading
    // the outcomes back is not the actuator's time)
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= pods.size());
    assertThat(outcomes).extracting(ResizeOutcome::result).containsOnly(OutcomeResult.APPLIED);
    Instant lastResize = h.api.requests().entries().stream()
        .filter(e -> RequestMatcher.resize().test(e.request()) && e.code() == 200)
        .map(RequestJournal.Entry::at).max(Instant::compareTo).orElseThrow();
    assertThat(Duration.between(healed, lastResize)).isLessThan(ApiPresence.LOOK_AGAIN.plusSeconds(2));
    for (Pod pod : pods) {
      assertThat(h.cpuLimit(pod.getMetadata().getName(), 0)).isEqualTo("2");
      assertThat(h.api.requests().count(RequestMatcher.resizeOf(NS, pod.getMetadata().getName()), 200)).isEqualTo(1);
    }
    await().atMost(ActuatorHarness.WAIT).until(actuator::ready);
  }
}
