package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One retry layer, as shipped: the actuator's own {@link RetryPolicy} over a client that sends each
 * call once ({@link ActuatorClient}). The worst case per live change is
 * {@link RetryPolicy#worstCaseRequests} = 8 requests (design: actuator/DESIGN.md, runbook).
 * The 429s come from the double's {@code FaultInjector}, or, where the test needs a
 * {@code Retry-After} header, from a {@link ThrottlingFront} before it.
 */
@WithKafka
class ActuatorRetryTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  private List<RequestJournal.Entry> requestsIn(String namespace) {
    return h.api.requests().entries().stream().filter(e -> namespace.equals(e.request().namespace())).toList();
  }

  @Test
  void twoThrottledResizesCostExactlyTheStatedWorstCase() {
    // given the API server throttles the first two resize requests with 429
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    h.api.faults().next(2, RequestMatcher.resize(), Fault.tooManyRequests());
    h.start();

    // when a change arrives
    h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));

    // then it is applied on the third try
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement()
        .satisfies(o -> assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED));
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("2");
    // and it cost exactly: 3 × (GET + resize) + annotation + event, nothing retried underneath
    List<RequestJournal.Entry> requests = requestsIn(NS);
    assertThat(requests).as("%s", requests).hasSize(RetryPolicy.DEFAULT.worstCaseRequests(false));
    assertThat(h.api.requests().count(RequestMatcher.of(Verb.GET, "pods").forPod(NS, "web-1"))).isEqualTo(3);
    assertThat(h.api.requests().count(RequestMatcher.resizeOf(NS, "web-1"), 429)).isEqualTo(2);
    assertThat(h.api.requests().count(RequestMatcher.resizeOf(NS, "web-1"), 200)).isEqualTo(1);
    assertThat(h.api.requests().count(RequestMatcher.podPatch().forPod(NS, "web-1"))).isEqualTo(1);
    assertThat(h.api.requests().count(RequestMatcher.of(Verb.CREATE, "events"))).isEqualTo(1);
    // and the tries waited at least the policy's backoff (or the server's Retry-After if longer)
    List<Instant> at = h.api.requests().entries().stream()
        .filter(e -> RequestMatcher.resize().test(e.request())).map(RequestJournal.Entry::at).toList();
    assertThat(Duration.between(at.get(0), at.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(190));
    assertThat(Duration.between(at.get(1), at.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(390));
  }

  @Test
  void aThrottledResizeWaitsAsLongAsRetryAfterAsks() {
    // given an API server whose priority and fairness throttles the first two resizes of web-1
    // with Retry-After: 2 (much longer than the policy's 200 ms / 400 ms backoff)
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    try (ThrottlingFront front = new ThrottlingFront(h.api.url(), p -> p.endsWith("/pods/web-1/resize"), 2, 2)) {
      h.start(h.settings(), front.config(h.api.config()));

      h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));

      assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement()
          .satisfies(o -> assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED));
      // then each retry came no sooner than the server asked
      List<Instant> resizes = new ArrayList<>(front.throttledAt);
      h.api.requests().entries().stream().filter(e -> RequestMatcher.resize().test(e.request()))
          .map(RequestJournal.Entry::at).forEach(resizes::add);
      assertThat(resizes).hasSize(3);
      assertThat(Duration.between(resizes.get(0), resizes.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(1990));
      assertThat(Duration.between(resizes.get(1), resizes.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(1990));
      // and nothing was retried underneath: 3 GETs, 3 resizes (2 answered by the front), the
      // annotation and the event
      assertThat(h.api.requests().count(RequestMatcher.of(Verb.GET, "pods").forPod(NS, "web-1"))).isEqualTo(3);
      assertThat(requestsIn(NS).size() + front.throttledAt.size())
          .isEqualTo(RetryPolicy.DEFAULT.worstCaseRequests(false));
    }
  }

  @Test
  void aThrottledChangeDoesNotHoldUpAnotherPod() {
    // given one pod whose resizes are always throttled, and one that is not
    Pod slow = h.pod("slow", "n1", "app=500m/1");
    Pod fast = h.pod("fast", "n2", "app=500m/1");
    h.api.faults().always(RequestMatcher.resizeOf(NS, "slow"), Fault.tooManyRequests());
    h.start();

    h.produce(decision("n1", false, change(slow.getMetadata().getUid(), NS, "slow", 1000, 2000)));
    h.produce(decision("n2", false, change(fast.getMetadata().getUid(), NS, "fast", 1000, 2000)));

    // then the throttled one gives up after its tries with no more requests than stated
    var outcomes = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(outcomes).anySatisfy(o -> {
      assertThat(o.name()).isEqualTo("fast");
      assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED);
    });
    assertThat(outcomes).anySatisfy(o -> {
      assertThat(o.name()).isEqualTo("slow");
      assertThat(o.result()).isEqualTo(OutcomeResult.ERROR);
      assertThat(o.message()).startsWith("gave up after 3 tries").contains("429");
    });
    assertThat(h.api.requests().count(RequestMatcher.resizeOf(NS, "slow"))).isEqualTo(3);
    assertThat(h.api.requests().count(RequestMatcher.of(Verb.GET, "pods").forPod(NS, "slow"))).isEqualTo(3);
  }
}
