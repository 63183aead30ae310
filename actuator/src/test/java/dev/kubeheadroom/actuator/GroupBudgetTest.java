package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * clientQPS is one budget for the whole actuator group (design §6.2c, {@link GroupShare}): two
 * replicas on a real broker, both budget-bound on one backlog, measured where it matters — the
 * requests the API server double journals.
 */
@WithKafka
class GroupBudgetTest {
  private static final String SA_NAMESPACE = "headroom";
  // 4 requests/s for the group, burst 4: a live patch costs 4 requests, so the group may patch
  // 1 pod/s, far below what two replicas could do on a loaded machine (budget-bound, not latency-
  // bound). With two replicas each bucket holds 2 tokens, less than one patch: the case where a
  // replica's share of the burst is smaller than what a try costs.
  private static final RateLimits LIMITS = new RateLimits(1000, 4, 4);
  private static final int PATCH_COST = 4;
  private static final Duration WINDOW = Duration.ofSeconds(5);
  private static final Duration SURVIVOR_WINDOW = Duration.ofSeconds(5);

  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  @Test
  void twoReplicasTogetherKeepToTheClientQpsAndASurvivorTakesAllOfIt() throws InterruptedException {
    // given a backlog of 80 patches over 16 nodes (both decisions partitions), far more than the
    // ~20 s this test runs can drain at 1 patch/s, so every replica is budget-bound throughout
    ClusterConfig d = ClusterConfig.DEFAULTS;
    h.config(new ClusterConfig(1, d.policy(), false, d.minBurstFloorMilli(), d.maxMultiplier(),
        d.quantumMilli(), d.deadbandGrowPercent(), d.deadbandShrinkPercent(), d.debouncePeriod(),
        d.maxDebounceDelay(), d.backoffPeriod(), LIMITS, d.webhook(), d.namespaceSelector(),
        d.excludedNamespaces()));
    for (int node = 0; node < 16; node++) {
      List<PodChange> changes = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String name = "web-" + node + "-" + i;
        Pod pod = h.pod(name, "n" + node, "app=500m/1");
        changes.add(change(pod.getMetadata().getUid(), NS, name, 1000, 2000));
      }
      h.produce(decision("n" + node, false, changes.toArray(PodChange[]::new)));
    }
    grantEverything("actuator-a", "actuator-b");
    // and two replicas in one group, each calling the API server as its own ServiceAccount
    Actuator a = h.start(h.settings().with(b -> b.instance = "actuator-a"), h.api.configAs(SA_NAMESPACE, "actuator-a"));
    h.start(h.settings().with(b -> b.instance = "actuator-b"), h.api.configAs(SA_NAMESPACE, "actuator-b"));
    Instant both = Instant.now();

    // when both run for a while, then one leaves the group
    Thread.sleep(5_000);
    a.close();
    Instant left = Instant.now();
    // then within 15 s (a rebalance, then one window) the survivor sends more than half the budget
    // could: the whole of it. (Half is 2/s: 10 in 5 s, plus one try on a full bucket, plus 3
    // requests of a try begun before.)
    double halfAtMost = LIMITS.clientQps() / 2 * seconds(SURVIVOR_WINDOW) + PATCH_COST + PATCH_COST - 1;
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
        .until(() -> busiest(since(by("actuator-b"), left), SURVIVOR_WINDOW) > halfAtMost);
    Duration toWhole = Duration.between(left, Instant.now());

    // and at no time did the group send more than clientQPS plus the burst, give or take the
    // requests of one try per replica (tokens are taken before a try's four requests arrive)
    List<Instant> all = times(h.api.requests().entries());
    double allowed = LIMITS.clientQps() * seconds(WINDOW) + LIMITS.clientBurst() + 2 * PATCH_COST;
    System.out.printf("GroupBudgetTest: the group's busiest %s: %d requests (allowed %.0f); the survivor's"
        + " busiest %s: %d (half the budget: at most %.0f), reached %d ms after the other left%n", WINDOW,
        busiest(all, WINDOW), allowed, SURVIVOR_WINDOW, busiest(since(by("actuator-b"), left), SURVIVOR_WINDOW),
        halfAtMost, toWhole.toMillis());
    assertThat(busiest(all, WINDOW)).as("requests in the busiest %s of %s", WINDOW, all.size())
        .isLessThanOrEqualTo((int) allowed);
    // and both were sending while they shared the group
    List<Instant> sharedA = between(by("actuator-a"), both, left);
    List<Instant> sharedB = between(by("actuator-b"), both, left);
    assertThat(sharedA).as("actuator-a while sharing").isNotEmpty();
    assertThat(sharedB).as("actuator-b while sharing").isNotEmpty();
  }

  /** A ClusterRole allowing everything, bound to each ServiceAccount (the test is about rates, not RBAC). */
  private void grantEverything(String... serviceAccounts) {
    var seed = h.api.seedClient();
    seed.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("everything")
        .endMetadata().addNewRule().withApiGroups("*").withResources("*").withVerbs("*").endRule().build())
        .create();
    var binding = new ClusterRoleBindingBuilder().withNewMetadata().withName("everything").endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
        .withName("everything").endRoleRef();
    for (String sa : serviceAccounts) {
      binding.addNewSubject().withKind("ServiceAccount").withNamespace(SA_NAMESPACE).withName(sa).endSubject();
    }
    seed.rbac().clusterRoleBindings().resource(binding.build()).create();
  }

  private List<Instant> by(String serviceAccount) {
    return times(h.api.requests().by(SA_NAMESPACE, serviceAccount));
  }

  private static List<Instant> times(List<RequestJournal.Entry> entries) {
    return entries.stream().map(RequestJournal.Entry::at).sorted().toList();
  }

  private static List<Instant> since(List<Instant> times, Instant from) {
    return times.stream().filter(t -> !t.isBefore(from)).toList();
  }

  private static List<Instant> between(List<Instant> times, Instant from, Instant to) {
    return times.stream().filter(t -> !t.isBefore(from) && t.isBefore(to)).toList();
  }

  /** The most of {@code sorted} falling within any {@code window} (sliding, starting at each one). */
  static int busiest(List<Instant> sorted, Duration window) {
    int most = 0;
    int end = 0;
    for (int start = 0; start < sorted.size(); start++) {
      Instant until = sorted.get(start).plus(window);
      while (end < sorted.size() && sorted.get(end).isBefore(until)) {
        end++;
      }
      most = Math.max(most, end - start);
    }
    return most;
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
