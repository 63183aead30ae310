package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Programmed answers (docs/design/headroom-design.txt §6.4 outcomes) and request counters. */
class FaultInjectionAndCountersTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    api.seedClient().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    api.seedClient().pods().inNamespace(NS).resource(burstable("web-2", "n1", "500m", "1")).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private Pod resize(String name, String cpu) {
    return api.client().pods().inNamespace(NS).resource(cpuLimitOnly(name, "app", cpu))
        .subresource("resize").patch(headroomApply());
  }

  @Test
  void aQuotaDenialAnswers403WithTheResourceQuotaMessageAndChangesNothing() {
    // given
    api.faults().next(1, RequestMatcher.resize(),
        Fault.forbiddenByQuota("compute", "limits.cpu=2", "limits.cpu=4", "limits.cpu=5"));
    // when / then
    assertThatThrownBy(() -> resize("web-1", "3"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(403);
          assertThat(e.getMessage()).contains("pods \"web-1\" is forbidden: exceeded quota: compute");
        });
    assertThat(api.pod(NS, "web-1").orElseThrow().getSpec().getContainers().get(0).getResources()
        .getLimits()).containsEntry("cpu", new Quantity("1"));
    // and the next request is answered normally
    assertThat(resize("web-1", "3").getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("3"));
  }

  @Test
  void aFaultForOnePodLeavesOtherPodsAlone() {
    var rule = api.faults().always(RequestMatcher.resizeOf(NS, "web-1"), Fault.conflict());
    assertThatThrownBy(() -> resize("web-1", "3"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThatThrownBy(() -> resize("web-1", "3"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(resize("web-2", "3").getMetadata().getName()).isEqualTo("web-2");
    rule.remove();
    assertThat(resize("web-1", "3").getMetadata().getName()).isEqualTo("web-1");
  }

  @Test
  void notFoundInvalidAndServerErrorsCanBeProgrammedInSequence() {
    api.faults().next(1, RequestMatcher.resize(), Fault.notFound());
    api.faults().next(1, RequestMatcher.resize(), Fault.invalid("spec: Forbidden: injected"));
    api.faults().next(1, RequestMatcher.resize(), Fault.internalError());
    // rules are tried in order; a used-up rule stops matching
    for (int expected : new int[] {404, 422, 500}) {
      assertThatThrownBy(() -> resize("web-1", "3"))
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(expected));
    }
    assertThat(api.requests().count(RequestMatcher.resize(), 404)).isEqualTo(1);
    assertThat(api.requests().count(RequestMatcher.resize(), 500)).isEqualTo(1);
  }

  @Test
  void aDelayedAnswerArrivesLateButTheChangeIsAppliedAtOnce() {
    api.faults().next(1, RequestMatcher.resize(), Fault.delay(Duration.ofMillis(700)));
    long started = System.nanoTime();
    resize("web-1", "3");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(650));
  }

  @Test
  void countersTellResizesFromPodPatchesAndSeedingIsNotCounted() {
    // given: two pods created by the seed client (not counted)
    // when
    resize("web-1", "3");
    resize("web-2", "3");
    api.client().pods().inNamespace(NS).withName("web-1").get();
    api.client().pods().inNamespace(NS).list();
    // then
    assertThat(api.requests().count(Verb.PATCH, "pods", "resize")).isEqualTo(2);
    assertThat(api.requests().count(RequestMatcher.podPatch())).isZero();
    assertThat(api.requests().count(Verb.GET, "pods", "")).isEqualTo(1);
    assertThat(api.requests().count(Verb.LIST, "pods", "")).isEqualTo(1);
    assertThat(api.requests().count(RequestMatcher.of(Verb.CREATE, "pods"))).isZero();
  }

  @Test
  void aQuietPeriodCanBeAssertedToHaveNoPatches() {
    // given
    resize("web-1", "3");
    var quietFrom = java.time.Instant.now();
    // when: only reads happen
    api.client().pods().inNamespace(NS).list();
    // then
    assertThat(api.requests().countSince(quietFrom, RequestMatcher.of(Verb.PATCH, "pods"))).isZero();
    assertThat(api.requests().count(RequestMatcher.of(Verb.PATCH, "pods"))).isEqualTo(1);
  }
}
