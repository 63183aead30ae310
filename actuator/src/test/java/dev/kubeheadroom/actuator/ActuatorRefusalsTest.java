package dev.kubeheadroom.actuator;

import dev.kubeheadroom.ops.HeadroomMetrics;
import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.ActuatorHarness.WAIT;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** How the actuator ends a resize the API server refuses or fails: outcome, metric, event, retries (docs/design/pipeline.md, docs/design/headroom-design.txt §8.1). */
@WithKafka
class ActuatorRefusalsTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  private static Map<String, OutcomeResult> byPod(List<ResizeOutcome> outcomes) {
    return outcomes.stream().collect(Collectors.toMap(ResizeOutcome::name, ResizeOutcome::result, (a, b) -> b));
  }

  private long resizes(String pod) {
    return h.api.requests().count(RequestMatcher.resizeOf(NS, pod));
  }


  @Test
  void refusedResizesEndInTheirOutcomeAndMetric() {
    // given four pods whose resizes the API server refuses in four ways
    Map<String, Fault> faults = Map.of(
        "quota", Fault.forbiddenByQuota("compute", "limits.cpu=1", "limits.cpu=4", "limits.cpu=4"),
        "vanished", Fault.notFound(),
        "raced", Fault.conflict(),
        "invalid", Fault.invalid("spec.containers[0].resources.limits: Invalid value: injected"));
    var changes = faults.keySet().stream().map(name -> {
      Pod pod = h.pod(name, "n1", "app=500m/1");
      h.api.faults().always(RequestMatcher.resizeOf(NS, name), faults.get(name));
      return change(pod.getMetadata().getUid(), NS, name, 1000, 2000);
    }).toArray(dev.kubeheadroom.schemas.PodChange[]::new);
    h.start();
    // when one decision names them all
    h.produce(decision("n1", false, changes));
    // then
    Map<String, OutcomeResult> results = byPod(h.outcomesUntil(os -> os.size() >= 4));
    assertThat(results).isEqualTo(Map.of("quota", OutcomeResult.QUOTA_DENIED, "vanished", OutcomeResult.GONE,
        "raced", OutcomeResult.CONFLICT, "invalid", OutcomeResult.ERROR));
    for (String result : List.of("quota-denied", "gone", "conflict", "error")) {
      assertThat(h.counter(HeadroomMetrics.RESIZES, result)).as(result).isEqualTo(1.0);
    }
    assertThat(h.counter(HeadroomMetrics.RESIZES, "applied")).isZero();
    // no retries for final answers
    assertThat(h.api.requests().count(RequestMatcher.resize())).isEqualTo(4);
    assertThat(h.events("ResizeForbidden")).singleElement().satisfies(e -> {
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getNote()).contains("exceeded quota: compute");
    });
    assertThat(h.events("CPULimitAdjusted")).isEmpty();
  }

  @Test
  void anErrorMessageFromTheServerReachesTheOutcome() {
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    h.api.faults().next(1, RequestMatcher.resize(), Fault.invalid("spec.containers[0]: injected"));
    h.start();
    h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement().satisfies(o -> {
      assertThat(o.result()).isEqualTo(OutcomeResult.ERROR);
      assertThat(o.message()).contains("422").contains("spec.containers[0]: injected");
    });
  }

  @Test
  void aServerErrorIsRetriedAndEndsInErrorAfterThreeTries() {
    // given the server fails every resize
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    h.api.faults().always(RequestMatcher.resize(), Fault.internalError());
    h.start();
    // when
    h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));
    // then
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement().satisfies(o -> {
      assertThat(o.result()).isEqualTo(OutcomeResult.ERROR);
      assertThat(o.message()).startsWith("gave up after 3 tries").contains("500");
    });
    assertThat(resizes("web-1")).isEqualTo(3);
    assertThat(h.counter(HeadroomMetrics.RESIZES, "error")).isEqualTo(1.0);
    // and the retries were spaced by the backoff (200 ms, then 400 ms)
    List<Instant> at = h.api.requests().entries().stream()
        .filter(e -> RequestMatcher.resize().test(e.request())).map(RequestJournal.Entry::at).toList();
    assertThat(Duration.between(at.get(0), at.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(190));
    assertThat(Duration.between(at.get(1), at.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(390));
  }

  @Test
  void aServerErrorFollowedBySuccessEndsApplied() {
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    h.api.faults().next(1, RequestMatcher.resize(), Fault.internalError());
    h.start();
    h.produce(decision("n1", false, change(pod.getMetadata().getUid(), NS, "web-1", 1000, 2000)));
    assertThat(h.outcomesUntil(os -> !os.isEmpty())).singleElement()
        .satisfies(o -> assertThat(o.result()).isEqualTo(OutcomeResult.APPLIED));
    assertThat(resizes("web-1")).isEqualTo(2);
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("2");
    assertThat(h.counter(HeadroomMetrics.RESIZES, "error")).isZero();
  }
}
