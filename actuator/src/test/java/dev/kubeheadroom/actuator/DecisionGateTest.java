package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.DecisionGate.Rule;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Each check of {@link DecisionGate} on its own (the end-to-end cases are in ActuatorGateTest). */
class DecisionGateTest {
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Duration MAX_AGE = Duration.ofMinutes(10);
  private static final ClusterConfig CONFIG = ClusterConfig.DEFAULTS.withDryRun(false);
  private static final NamespaceInfo MANAGED =
      new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0, 0, 0);

  private static PodWork work(Instant at, PodChange change) {
    return PodWork.of(1, decision("n1", at, false, change), change, new TopicPartition("d", 0), 0);
  }

  private static PodWork work(String ns, Instant at) {
    return work(at, change("u", ns, "web-1", 1500, 3000));
  }

  private static Optional<Rule> rule(PodWork work, ClusterConfig config, NamespaceInfo ns) {
    return DecisionGate.check(work, config, Optional.ofNullable(ns), NOW, MAX_AGE)
        .map(DecisionGate.Rejection::rule);
  }

  @Test
  void aFreshDecisionForAManagedNamespacePasses() {
    assertThat(rule(work("team-a", NOW.minusSeconds(1)), CONFIG, MANAGED)).isEmpty();
  }

  @Test
  void anExcludedNamespaceIsRejectedEvenWhenLabelledManaged() {
    NamespaceInfo kubeSystem = new NamespaceInfo("kube-system", MANAGED.labels(), 0, 0, 0);
    assertThat(rule(work("kube-system", NOW), CONFIG, kubeSystem)).contains(Rule.NAMESPACE);
  }

  @Test
  void aNamespaceIngestNeverPublishedIsRejected() {
    assertThat(rule(work("team-a", NOW), CONFIG, null)).contains(Rule.NAMESPACE);
  }

  @Test
  void theCurrentConfigDecidesWhatIsManaged() {
    NamespaceInfo labelled = new NamespaceInfo("team-b", Map.of("tier", "web"), 0, 0, 0);
    assertThat(rule(work("team-b", NOW), CONFIG, labelled)).contains(Rule.NAMESPACE);
    ClusterConfig selecting = new ClusterConfig(3, CONFIG.policy(), false, CONFIG.minBurstFloorMilli(),
        CONFIG.maxMultiplier(), CONFIG.quantumMilli(), CONFIG.deadbandGrowPercent(),
        CONFIG.deadbandShrinkPercent(), CONFIG.debouncePeriod(), CONFIG.maxDebounceDelay(),
        CONFIG.backoffPeriod(), CONFIG.rateLimits(), CONFIG.webhook(),
        new LabelSelector(Map.of("tier", "web"), List.of()), List.of("kube-system", "team-a"));
    assertThat(rule(work("team-b", NOW), selecting, labelled)).isEmpty();
    // and a namespace the new config excludes is refused although its label still opts in
    assertThat(rule(work("team-a", NOW), selecting, MANAGED)).contains(Rule.NAMESPACE);
  }

  @Test
  void aDecisionOlderThanTheBoundIsRejectedAndOneAtTheBoundIsNot() {
    assertThat(rule(work("team-a", NOW.minus(MAX_AGE)), CONFIG, MANAGED)).isEmpty();
    assertThat(rule(work("team-a", NOW.minus(MAX_AGE).minusMillis(1)), CONFIG, MANAGED)).contains(Rule.AGE);
    // a writer's clock ahead of ours is not a reason to refuse
    assertThat(rule(work("team-a", NOW.plusSeconds(30)), CONFIG, MANAGED)).isEmpty();
  }

  private static Pod pod(String request) {
    return new PodBuilder().withNewMetadata().withName("web-1").withNamespace("team-a").endMetadata()
        .withNewSpec()
        .addToContainers(new ContainerBuilder().withName("app").withNewResources()
            .addToRequests("cpu", new Quantity(request)).addToLimits("cpu", new Quantity("1500m"))
            .endResources().build())
        .addToInitContainers(new ContainerBuilder().withName("proxy").withRestartPolicy("Always")
            .withNewResources().addToRequests("cpu", new Quantity("200m")).endResources().build())
        .endSpec().build();
  }

  @Test
  void aTargetBelowTheRequestIsRejectedAndOneEqualToItIsNot() {
    assertThat(DecisionGate.belowRequest(work(NOW, change("u", "team-a", "web-1", 1500, 749)), pod("750m")))
        .map(DecisionGate.Rejection::message).contains("target below the CPU request: app 749m < request 750m");
    assertThat(DecisionGate.belowRequest(work(NOW, change("u", "team-a", "web-1", 1500, 750)), pod("750m")))
        .isEmpty();
  }

  @Test
  void aSidecarsRequestCountsToo() {
    PodChange change = change("u", "team-a", "web-1", 1500, 100, new ContainerChange("proxy", 300, 100));
    assertThat(DecisionGate.belowRequest(work(NOW, change), pod("750m")))
        .map(DecisionGate.Rejection::rule).contains(Rule.REQUEST);
  }

  @Test
  void aContainerWithoutARequestIsNotJudgedByIt() {
    Pod noRequest = new PodBuilder().withNewMetadata().withName("web-1").endMetadata().withNewSpec()
        .addToContainers(new ContainerBuilder().withName("app").build()).endSpec().build();
    assertThat(DecisionGate.belowRequest(work(NOW, change("u", "team-a", "web-1", 0, 100)), noRequest))
        .isEmpty();
  }
}
