package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The current config governs the actuator, and the actuator checks each decision against what it
 * can see (actuator DESIGN.md "Rules").
 */
@WithKafka
class ActuatorGateTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  private static ClusterConfig config(boolean dryRun) {
    ClusterConfig d = ClusterConfig.DEFAULTS;
    return new ClusterConfig(2, d.policy(), dryRun, d.minBurstFloorMilli(), d.maxMultiplier(),
        d.quantumMilli(), d.deadbandGrowPercent(), d.deadbandShrinkPercent(), d.debouncePeriod(),
        d.maxDebounceDelay(), d.backoffPeriod(), new RateLimits(1000, 1000, 1000), d.webhook(),
        d.namespaceSelector(), d.excludedNamespaces());
  }

  private static String uid(Pod pod) {
    return pod.getMetadata().getUid();
  }

  private ResizeOutcome onlyOutcome() {
    return h.outcomesUntil(os -> !os.isEmpty()).get(0);
  }

  private double rejected(String rule) {
    return h.registry.get(ActuatorMetrics.REJECTED).tag("rule", rule).counter().count();
  }

  /** A Burstable pod {@code app=750m/1500m} in {@code namespace}, created with it. */
  private Pod podIn(String namespace, String name) {
    var client = h.api.seedClient();
    if (client.namespaces().withName(namespace).get() == null) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
          .endMetadata().build()).create();
    }
    Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec().withNodeName("n1").addNewContainer().withName("app").withImage("registry.example/app:1")
        .withNewResources().addToRequests("cpu", new Quantity("750m")).addToLimits("cpu", new Quantity("1500m"))
        .endResources().endContainer().endSpec().build();
    return client.pods().inNamespace(namespace).resource(pod).create();
  }

  @Test
  void dryRunInTheCurrentConfigStopsAnEnforcingBacklogWhileDryRunStillAnnotates() {
    // given the actuator ran enforcing and committed its group's offsets
    h.config(config(false));
    Pod warm = h.pod("warm", "n0", "app=750m/1500m");
    Actuator first = h.start();
    h.produce(decision("n0", false, change(uid(warm), NS, "warm", 1500, 3000)));
    assertThat(onlyOutcome().result()).isEqualTo(OutcomeResult.APPLIED);
    first.close();
    // and meanwhile 100 enforcing decisions queue up
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String node = "n" + (i % 10);
      Pod pod = h.pod("web-" + i, node, "app=750m/1500m");
      pods.add(pod);
      h.produce(decision(node, false, change(uid(pod), NS, "web-" + i, 1500, 3000)));
    }
    // when the config is flipped to dry-run (the runbook's rollback) and the actuator starts
    h.config(config(true));
    long resizesBefore = h.api.requests().count(RequestMatcher.resize());
    h.start();
    // then every queued decision ends dry-run
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 101);
    assertThat(outcomes).hasSize(101);
    assertThat(outcomes.subList(1, 101)).extracting(ResizeOutcome::result).containsOnly(OutcomeResult.DRY_RUN);
    // and the API double saw zero resize requests
    assertThat(h.api.requests().count(RequestMatcher.resize())).isEqualTo(resizesBefore).isEqualTo(1);
    for (Pod pod : pods) {
      assertThat(h.cpuLimit(pod.getMetadata().getName(), 0)).isEqualTo("1500m");
    }
    // and the dry-run path works as for a dry-run decision: annotation and event
    assertThat(h.stored("web-7").getMetadata().getAnnotations().get(HeadroomKeys.STATUS_ANNOTATION))
        .contains("\"dryRun\":true").contains("\"targetLimit\":\"3000m\"");
    assertThat(h.events("CPULimitAdjusted")).filteredOn(e -> e.getNote().startsWith("(dry-run) would adjust"))
        .hasSize(100);
    assertThat(h.counter(HeadroomMetrics.RESIZES, "dry-run")).isEqualTo(100.0);
  }

  @Test
  void aDecisionForAnExcludedNamespaceIsRejectedWithoutARequest() {
    // given kube-system is excluded (the default) even though it is labelled managed
    Pod pod = podIn("kube-system", "coredns");
    h.namespace(new NamespaceInfo("kube-system", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0, 0, 0));
    h.start();
    // when someone writes an enforcing decision for it
    h.produce(decision("n1", false, change(uid(pod), "kube-system", "coredns", 1500, 64000)));
    // then it is rejected, counted by its rule, and the API server never heard of it
    ResizeOutcome outcome = onlyOutcome();
    assertThat(outcome.result()).isEqualTo(OutcomeResult.REJECTED);
    assertThat(outcome.message()).isEqualTo("namespace kube-system is excluded");
    assertThat(h.api.requests().entries()).noneMatch(e -> "kube-system".equals(e.request().namespace())
        && e.request().verb() != dev.kubeheadroom.kubedouble.ApiRequest.Verb.CREATE);
    assertThat(rejected("namespace")).isEqualTo(1.0);
    assertThat(h.counter(HeadroomMetrics.RESIZES, "rejected")).isEqualTo(1.0);
  }

  @Test
  void aDecisionForANamespaceNotManagedUnderTheCurrentConfigIsRejected() {
    // given team-b is known but not opted in, and team-c was never published by ingest
    Pod b = podIn("team-b", "api");
    Pod c = podIn("team-c", "api");
    h.namespace(new NamespaceInfo("team-b", Map.of(), 0, 0, 0));
    h.start();
    // when decisions name pods there
    h.produce(decision("n1", false, change(uid(b), "team-b", "api", 1500, 3000)));
    h.produce(decision("n2", false, change(uid(c), "team-c", "api", 1500, 3000)));
    // then both are rejected and neither pod is resized
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(outcomes).extracting(ResizeOutcome::result).containsOnly(OutcomeResult.REJECTED);
    assertThat(outcomes).extracting(ResizeOutcome::message).containsExactlyInAnyOrder(
        "namespace team-b is not managed under config generation 0",
        "namespace team-c is unknown (not on the namespaces topic)");
    assertThat(h.api.requests().count(RequestMatcher.resize())).isZero();
    assertThat(rejected("namespace")).isEqualTo(2.0);
  }

  @Test
  void aDecisionOlderThanMaxDecisionAgeIsRejected() {
    // given a pod, and an actuator whose bound is 1 minute
    Pod pod = h.pod("web-1", "n1", "app=750m/1500m");
    h.start(h.settings().with(b -> b.maxDecisionAge = Duration.ofMinutes(1)));
    // when a decision computed 2 minutes ago arrives
    Instant stale = Instant.now().minus(Duration.ofMinutes(2));
    h.produce(decision("n1", stale, false, change(uid(pod), NS, "web-1", 1500, 3000)));
    // then it is rejected and the pod keeps its limit
    ResizeOutcome outcome = onlyOutcome();
    assertThat(outcome.result()).isEqualTo(OutcomeResult.REJECTED);
    assertThat(outcome.message()).startsWith("decision computed at ").endsWith("is older than PT1M");
    assertThat(h.api.requests().count(RequestMatcher.resize())).isZero();
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("1500m");
    assertThat(rejected("age")).isEqualTo(1.0);
  }

  // A refusal costs no API call, so it spends none of the client budget: a backlog older than
  // maxDecisionAge (a cluster-wide change at the design point queues for longer than that) must
  // not hold the fresh decisions behind it at clientQPS per refusal.
  @Test
  void staleDecisionsAreRejectedWithoutSpendingTheClientBudget() {
    // given a client budget of one live patch (4 requests) then 2 requests/s, and 6 stale
    // decisions queued on one node (one partition, so in order) before a fresh one
    ClusterConfig d = config(false);
    h.config(new ClusterConfig(2, d.policy(), false, d.minBurstFloorMilli(), d.maxMultiplier(),
        d.quantumMilli(), d.deadbandGrowPercent(), d.deadbandShrinkPercent(), d.debouncePeriod(),
        d.maxDebounceDelay(), d.backoffPeriod(), new RateLimits(1000, 2, 4), d.webhook(),
        d.namespaceSelector(), d.excludedNamespaces()));
    Instant stale = Instant.now().minus(Duration.ofMinutes(2));
    for (int i = 0; i < 6; i++) {
      Pod pod = h.pod("old-" + i, "n1", "app=750m/1500m");
      h.produce(decision("n1", stale, false, change(uid(pod), NS, "old-" + i, 1500, 3000)));
    }
    Pod fresh = h.pod("fresh", "n1", "app=750m/1500m");
    // (computed now: Decisions.AT is the test class's load time, which a loaded machine can put
    // more than the 1-minute bound in the past)
    h.produce(decision("n1", Instant.now(), false, change(uid(fresh), NS, "fresh", 1500, 3000)));
    // when the actuator starts with a 1-minute bound
    h.start(h.settings().with(b -> b.maxDecisionAge = Duration.ofMinutes(1)));
    // then the six are rejected and the fresh one applied at once: had each refusal spent a
    // patch's 4 tokens, the fresh one would have waited 6 × 2 s
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> os.size() >= 7);
    assertThat(outcomes).extracting(ResizeOutcome::result).containsExactly(
        OutcomeResult.REJECTED, OutcomeResult.REJECTED, OutcomeResult.REJECTED, OutcomeResult.REJECTED,
        OutcomeResult.REJECTED, OutcomeResult.REJECTED, OutcomeResult.APPLIED);
    assertThat(Duration.between(outcomes.get(0).at(), outcomes.get(6).at())).isLessThan(Duration.ofSeconds(6));
    assertThat(h.cpuLimit("fresh", 0)).isEqualTo("3");
  }

  @Test
  void aTargetBelowTheContainersRequestIsRejected() {
    // given a container requesting 750m
    Pod pod = h.pod("web-1", "n1", "app=750m/1500m");
    h.start();
    // when a decision would limit it to 500m
    h.produce(decision("n1", false, change(uid(pod), NS, "web-1", 1500, 500)));
    // then it is rejected without a resize request
    ResizeOutcome outcome = onlyOutcome();
    assertThat(outcome.result()).isEqualTo(OutcomeResult.REJECTED);
    assertThat(outcome.message()).isEqualTo("target below the CPU request: app 500m < request 750m");
    assertThat(h.api.requests().count(RequestMatcher.resize())).isZero();
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("1500m");
    assertThat(rejected("request")).isEqualTo(1.0);
  }

  @Test
  void aTargetAboveTheNamespacesLimitRangeIsRejected() {
    // given a namespace whose LimitRanges cap a container at 2 CPUs (as ingest publishes them)
    h.namespace(new NamespaceInfo(NS, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED),
        new LimitRangeCaps(2000, 0, 0)));
    Pod pod = h.pod("web-1", "n1", "app=750m/1500m");
    h.start();
    // when a decision would limit it to 2001m
    h.produce(decision("n1", false, change(uid(pod), NS, "web-1", 1500, 2001)));
    // then it is rejected without a resize request (LimitRanger would refuse it with a 403)
    ResizeOutcome outcome = onlyOutcome();
    assertThat(outcome.result()).isEqualTo(OutcomeResult.REJECTED);
    assertThat(outcome.message()).isEqualTo("target above the namespace's LimitRange: app 2001m > LimitRange cap 2000m");
    assertThat(h.api.requests().count(RequestMatcher.resize())).isZero();
    assertThat(h.cpuLimit("web-1", 0)).isEqualTo("1500m");
    assertThat(rejected("limitrange")).isEqualTo(1.0);
  }

  @Test
  void aNewGroupStartsFromTheLatestOffsetsNotTheBacklog() {
    // given an old decision queued before the group existed
    Pod old = h.pod("old", "n1", "app=750m/1500m");
    Pod fresh = h.pod("fresh", "n1", "app=750m/1500m");
    h.produce(decision("n1", false, change(uid(old), NS, "old", 1500, 3000)));
    ActuatorSettings production = ActuatorSettings.defaults(KafkaClientSettings.of(h.kafka.bootstrapServers()), h.topics)
        .with(b -> {
          b.groupId = h.groupId;
          b.instance = "actuator-test";
        });
    assertThat(production.decisionsConsumer()).containsEntry("auto.offset.reset", "latest");
    h.start(production);
    // when a decision arrives once the actuator is ready (ready: its group has its positions)
    // (same node key, same partition: had the old one been read, its outcome would come first)
    h.produce(decision("n1", false, change(uid(fresh), NS, "fresh", 1500, 3000)));
    List<ResizeOutcome> outcomes = h.outcomesUntil(os -> !os.isEmpty());
    // then the new one is handled and the old one never is
    assertThat(outcomes).isNotEmpty().extracting(ResizeOutcome::name).containsOnly("fresh");
    assertThat(h.cpuLimit("old", 0)).isEqualTo("1500m");
  }
}
