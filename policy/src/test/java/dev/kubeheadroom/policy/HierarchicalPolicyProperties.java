package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The tenant guarantees of {@link HierarchicalPolicy} (docs/design/headroom-design.txt §11.1),
 * over generated nodes of up to three tenants with generated weights.
 */
class HierarchicalPolicyProperties {
  private final SlackPolicyProperties flat = new SlackPolicyProperties();

  /** A node: its pods, and the tenant of each (parallel lists). */
  record Node(long allocatableMilli, List<PodInput> pods, List<Tenant> tenants) {}

  @Property(tries = 300)
  void everyTargetStaysBetweenItsRequestAndItsCap(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // when
    NodeResult result = compute(node, config);
    // then request ≤ target ≤ the pod's cap (the same caps as the flat policy)
    Map<String, PodInput> byKey = byKey(node.pods());
    for (Decision d : result.decisions()) {
      PodInput pod = byKey.get(d.key());
      long hi = SlackPolicy.cap(pod, result.stats(), config).hiMilli();
      assertThat(d.targetLimitMilli()).as("target of %s", pod)
          .isGreaterThanOrEqualTo(pod.requestMilli()).isLessThanOrEqualTo(hi);
    }
  }

  @Property(tries = 300)
  void theBurstsTogetherNeverExceedTheNodesSlack(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // when
    NodeResult result = compute(node, config);
    // then Σ(target − request) ≤ slack whenever there is slack to share (with none, every target
    // is the flat policy's quantized request: see nothingIsSharedOnAFullNode)
    if (result.stats().slackMilli() > 0) {
      Map<String, PodInput> byKey = byKey(node.pods());
      long bursts = 0;
      for (Decision d : result.decisions()) {
        bursts += d.targetLimitMilli() - byKey.get(d.key()).requestMilli();
      }
      assertThat(bursts).isLessThanOrEqualTo(result.stats().slackMilli());
    }
  }

  @Property(tries = 300)
  void aTenantAddingPodsNeverChangesAnotherTenantsTargets(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config,
      @ForAll @IntRange(min = 2, max = 12) int pieces) {
    // given tenant "a" re-deploys its managed pods as more, smaller pods of the same total request
    List<PodInput> pods = new ArrayList<>();
    List<Tenant> tenants = new ArrayList<>();
    for (int i = 0; i < node.pods().size(); i++) {
      PodInput p = node.pods().get(i);
      Tenant t = node.tenants().get(i);
      if (!t.name().equals("a") || !p.managed() || p.requestMilli() < pieces) {
        pods.add(p);
        tenants.add(t);
        continue;
      }
      long each = p.requestMilli() / pieces;
      for (int k = 0; k < pieces; k++) {
        long request = k == 0 ? p.requestMilli() - each * (pieces - 1) : each;
        pods.add(new PodInput(p.key() + "-" + k, request, 0, true, 0));
        tenants.add(t);
      }
    }
    // when
    Map<String, Long> before = targets(compute(node, config));
    Map<String, Long> after = targets(HierarchicalPolicy.computeNode(node.allocatableMilli(), pods, tenants, config));
    // then every pod of every other tenant keeps its target exactly
    for (int i = 0; i < node.pods().size(); i++) {
      PodInput p = node.pods().get(i);
      if (p.managed() && !node.tenants().get(i).name().equals("a")) {
        assertThat(after.get(p.key())).as("target of %s", p).isEqualTo(before.get(p.key()));
      }
    }
  }

  @Property(tries = 300)
  void aHeavierTenantNeverLowersItsOwnPodsTargets(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // given tenant "b" doubles its weight multiplier
    List<Tenant> heavier = node.tenants().stream()
        .map(t -> t.name().equals("b") ? new Tenant("b", t.weightMultiplier() * 2) : t).toList();
    // when
    Map<String, Long> before = targets(compute(node, config));
    Map<String, Long> after = targets(HierarchicalPolicy.computeNode(node.allocatableMilli(), node.pods(), heavier, config));
    // then b's pods do not lose, and no other tenant's pod gains
    for (int i = 0; i < node.pods().size(); i++) {
      PodInput p = node.pods().get(i);
      if (!p.managed()) {
        continue;
      }
      if (node.tenants().get(i).name().equals("b")) {
        assertThat(after.get(p.key())).as("b's %s", p).isGreaterThanOrEqualTo(before.get(p.key()));
      } else {
        assertThat(after.get(p.key())).as("other %s", p).isLessThanOrEqualTo(before.get(p.key()));
      }
    }
  }

  @Property(tries = 300)
  void nothingIsSharedOnAFullNode(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // given the same pods on a node exactly booked (slack = 0)
    long total = node.pods().stream().mapToLong(PodInput::requestMilli).sum();
    // when / then every decision is the flat policy's
    assertThat(HierarchicalPolicy.computeNode(total, node.pods(), node.tenants(), config))
        .isEqualTo(SlackPolicy.computeNode(total, node.pods(), config));
  }

  @Property(tries = 300)
  void decisionsAreDeterministicAndInTheManagedPodsInputOrder(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    NodeResult first = compute(node, config);
    NodeResult second = HierarchicalPolicy.computeNode(node.allocatableMilli(),
        new ArrayList<>(node.pods()), new ArrayList<>(node.tenants()), config);
    assertThat(second).isEqualTo(first);
    assertThat(first.decisions()).extracting(Decision::key).containsExactlyElementsOf(
        node.pods().stream().filter(PodInput::managed).map(PodInput::key).toList());
  }

  // ---------------------------------------------------------------- generators

  @Provide
  Arbitrary<Node> nodes() {
    Arbitrary<Tenant> tenant = Combinators.combine(Arbitraries.of("a", "b", "c"),
        Arbitraries.of(1.0, 0.5, 2.0, 3.0)).as(Tenant::new);
    Arbitrary<List<PodInput>> pods = flat.pods().list().ofMaxSize(30);
    Arbitrary<Map<String, Double>> weights = Arbitraries.of(1.0, 0.5, 2.0, 3.0).list().ofSize(3)
        .map(w -> Map.of("a", w.get(0), "b", w.get(1), "c", w.get(2)));
    return Combinators.combine(Arbitraries.longs().between(0, 128_000), pods,
            tenant.list().ofSize(30), weights)
        .as((allocatable, list, names, w) -> {
          List<PodInput> keyed = new ArrayList<>();
          List<Tenant> tenants = new ArrayList<>();
          for (int i = 0; i < list.size(); i++) {
            PodInput p = list.get(i);
            keyed.add(new PodInput("pod-" + i, p.requestMilli(), p.currentLimitMilli(), p.managed(), p.userCapMilli()));
            String name = names.get(i).name();
            tenants.add(new Tenant(name, w.get(name))); // one weight per tenant, as namespaces give
          }
          return new Node(allocatable, keyed, tenants);
        });
  }

  @Provide
  Arbitrary<PolicyConfig> configs() {
    return flat.configs();
  }

  // ---------------------------------------------------------------- helpers

  private static NodeResult compute(Node node, PolicyConfig config) {
    return HierarchicalPolicy.computeNode(node.allocatableMilli(), node.pods(), node.tenants(), config);
  }

  private static Map<String, PodInput> byKey(List<PodInput> pods) {
    Map<String, PodInput> map = new HashMap<>();
    pods.forEach(p -> map.put(p.key(), p));
    return map;
  }

  private static Map<String, Long> targets(NodeResult result) {
    Map<String, Long> map = new HashMap<>();
    result.decisions().forEach(d -> map.put(d.key(), d.targetLimitMilli()));
    return map;
  }
}
