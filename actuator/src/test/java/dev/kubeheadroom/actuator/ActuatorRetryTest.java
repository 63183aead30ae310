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
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One retry layer, as shipped: the actuator's own {@link RetryPolicy} over a client that sends each
 * call once ({@link ActuatorClient}). The worst case per live change is
 * {@link RetryPolicy#worstCaseRequests} = 8 requests (design: actuator/DESIGN.md, runbook).
 */
@WithKafka
class ActuatorRetryTest {
  private ActuatorHarness h;

  @BeforeEach
  void setUp(KafkaBroker kafka) {
    h = new ActuatorHarness(kafka);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

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
