package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.DecisionGate.Rejection;
import dev.kubeheadroom.actuator.DecisionGate.Rule;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * {@link Rule#LIMIT_RANGE}: the caps LimitRanger (plugin/pkg/admission/limitranger/admission.go)
 * enforces on every {@code pods/resize} — container {@code max.cpu}, {@code maxLimitRequestRatio.cpu},
 * pod {@code max.cpu} over the containers' limits — checked before the request is sent.
 */
class DecisionGateLimitRangeTest {
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  private static PodWork work(PodChange change) {
    return PodWork.of(1, decision("n1", NOW, false, change), change, new TopicPartition("d", 0), 0);
  }

  /** {@code app} requesting 750m (limit 1500m) and a sidecar {@code proxy} 200m/300m. */
  private static Pod pod(boolean proxyLimited) {
    ContainerBuilder proxy = new ContainerBuilder().withName("proxy").withRestartPolicy("Always");
    proxy = proxyLimited
        ? proxy.withNewResources().addToRequests("cpu", new Quantity("200m")).addToLimits("cpu", new Quantity("300m"))
            .endResources()
        : proxy.withNewResources().addToRequests("cpu", new Quantity("200m")).endResources();
    return new PodBuilder().withNewMetadata().withName("web-1").withNamespace("team-a").endMetadata()
        .withNewSpec()
        .addToContainers(new ContainerBuilder().withName("app").withNewResources()
            .addToRequests("cpu", new Quantity("750m")).addToLimits("cpu", new Quantity("1500m"))
            .endResources().build())
        .addToInitContainers(proxy.build())
        .addToInitContainers(new ContainerBuilder().withName("migrate").withNewResources()
            .addToRequests("cpu", new Quantity("4")).addToLimits("cpu", new Quantity("4")).endResources().build())
        .endSpec().build();
  }

  private static Optional<Rejection> check(long appTarget, LimitRangeCaps caps) {
    return DecisionGate.outsideLimitRange(work(change("u", "team-a", "web-1", 1500, appTarget)), pod(true), caps);
  }

  @Test
  void aTargetAboveTheContainerMaxIsRejectedAndOneAtItIsNot() {
    LimitRangeCaps caps = new LimitRangeCaps(2000, 0, 0);
    assertThat(check(2000, caps)).isEmpty();
    assertThat(check(2001, caps)).map(Rejection::message)
        .contains("target above the namespace's LimitRange: app 2001m > LimitRange cap 2000m");
  }

  @Test
  void theRatioCapsATargetByItsContainersRequest() {
    LimitRangeCaps twice = new LimitRangeCaps(0, 0, 2000); // maxLimitRequestRatio 2, request 750m
    assertThat(check(1500, twice)).isEmpty();
    assertThat(check(1501, twice)).map(Rejection::rule).contains(Rule.LIMIT_RANGE);
  }

  @Test
  void thePodMaxBoundsTheTargetsPlusTheOtherContainersLimits() {
    // app's target + proxy's 300m; the run-to-completion init container does not run beside them
    LimitRangeCaps pod = new LimitRangeCaps(0, 2000, 0);
    assertThat(check(1700, pod)).isEmpty();
    assertThat(check(1701, pod)).map(Rejection::message)
        .contains("target above the namespace's LimitRange: pod 2001m > LimitRange pod max 2000m");
  }

  @Test
  void aSidecarsTargetIsCheckedToo() {
    PodChange change = change("u", "team-a", "web-1", 1800, 2300, new ContainerChange("app", 1500, 1500),
        new ContainerChange("proxy", 300, 801));
    LimitRangeCaps ratio = new LimitRangeCaps(0, 0, 4000); // proxy: 200m × 4 = 800m
    assertThat(DecisionGate.outsideLimitRange(work(change), pod(true), ratio))
        .map(Rejection::message).hasValueSatisfying(m -> assertThat(m).contains("proxy 801m > LimitRange cap 800m"));
  }

  @Test
  void aPodWithAContainerWithoutACpuLimitIsNotSummed() {
    PodChange change = change("u", "team-a", "web-1", 1500, 1900);
    assertThat(DecisionGate.outsideLimitRange(work(change), pod(false), new LimitRangeCaps(0, 2000, 0))).isEmpty();
  }

  @Test
  void noLimitRangeNoCheck() {
    assertThat(check(Long.MAX_VALUE / 2, LimitRangeCaps.NONE)).isEmpty();
  }

  @Test
  void theRequestCheckComesFirst() {
    PodChange change = change("u", "team-a", "web-1", 1500, 700);
    assertThat(DecisionGate.checkPod(work(change), pod(true), new LimitRangeCaps(600, 0, 0)))
        .map(Rejection::rule).contains(Rule.REQUEST);
  }
}
