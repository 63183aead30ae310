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
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The invariants docs/design/policy.md ("Properties the tests must assert") and docs/design/headroom-design.txt §9.2 require of
 * {@link SlackPolicy#computeNode}, over generated nodes and configs.
 */
class SlackPolicyProperties {

  /** A node and its pods; pod keys are unique. */
  record Node(long allocatableMilli, List<PodInput> pods) {}

  // ---------------------------------------------------------------- properties

  @Property
  void targetStaysBetweenTheRequestAndTheTightestCap(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // when
    NodeResult result = SlackPolicy.computeNode(node.allocatableMilli(), node.pods(), config);
    // then request ≤ target ≤ max(request, min(allocatable, round(request·maxMultiplier), userCap))
    Map<String, PodInput> byKey = byKey(node.pods());
    for (Decision d : result.decisions()) {
      PodInput pod = byKey.get(d.key());
      long hi = node.allocatableMilli();
      if (config.maxMultiplier() > 0) {
        // docs/design/policy.md step 2 rounds request·maxMultiplier to millicores; the real-valued product
        // can be up to 0.5m lower for a decimal multiplier (e.g. 33m × 1.5 = 49.5m → 50m).
        hi = Math.min(hi, Math.round(pod.requestMilli() * config.maxMultiplier()));
      }
      if (pod.userCapMilli() > 0) {
        hi = Math.min(hi, pod.userCapMilli());
      }
      assertThat(d.targetLimitMilli())
          .as("target of %s", pod)
          .isGreaterThanOrEqualTo(pod.requestMilli())
          .isLessThanOrEqualTo(Math.max(pod.requestMilli(), hi));
    }
  }

  @Property
  void everyTargetIsItsQuantizedRequestWhenTheNodeHasNoSlack(
      @ForAll("nodes") Node node,
      @ForAll @IntRange(min = 0, max = 20_000) int overbookingMilli,
      @ForAll("configs") PolicyConfig config) {
    // given the same pods on a node exactly booked or overbooked (slack = 0)
    long total = node.pods().stream().mapToLong(PodInput::requestMilli).sum();
    long allocatable = Math.max(total - overbookingMilli, 0);
    // when
    NodeResult result = SlackPolicy.computeNode(allocatable, node.pods(), config);
    // then each target is its request through step 4, written out here from docs/design/policy.md: the
    // nearest quantum (half up), one back if above hi, never below the request
    assertThat(result.stats().slackMilli()).isZero();
    Map<String, PodInput> byKey = byKey(node.pods());
    for (Decision d : result.decisions()) {
      PodInput pod = byKey.get(d.key());
      long request = pod.requestMilli();
      long q = config.quantumMilli();
      long expected = request;
      if (q > 0) {
        long hi = allocatable;
        if (config.maxMultiplier() > 0) {
          hi = Math.min(hi, Math.round(request * config.maxMultiplier()));
        }
        if (pod.userCapMilli() > 0) {
          hi = Math.min(hi, pod.userCapMilli());
        }
        hi = Math.max(hi, request);
        long t = ((request + q / 2) / q) * q;
        if (t > hi) {
          t -= q;
        }
        expected = Math.max(t, request);
      }
      assertThat(d.targetLimitMilli()).as("target of %s", pod).isEqualTo(expected);
      assertThat(d.targetLimitMilli()).isBetween(request, request + Math.max(q, 0) / 2);
    }
  }

  @Property
  void addingAPodNeverRaisesAnyOtherPodsTarget(
      @ForAll("nodes") Node node,
      @ForAll("pods") PodInput newcomer,
      @ForAll @IntRange(min = 0, max = 1_000) int position,
      @ForAll("configs") PolicyConfig config) {
    // given the node, and the node with one more pod (managed or not) anywhere in the list
    List<PodInput> more = new ArrayList<>(node.pods());
    PodInput added = new PodInput("newcomer", newcomer.requestMilli(), newcomer.currentLimitMilli(),
        newcomer.managed(), newcomer.userCapMilli());
    more.add(position % (more.size() + 1), added);
    // when
    NodeResult before = SlackPolicy.computeNode(node.allocatableMilli(), node.pods(), config);
    NodeResult after = SlackPolicy.computeNode(node.allocatableMilli(), more, config);
    // then no incumbent's target went up
    Map<String, Long> afterTargets = targets(after);
    for (Decision d : before.decisions()) {
      assertThat(afterTargets.get(d.key())).as("target of %s", d.key())
          .isLessThanOrEqualTo(d.targetLimitMilli());
    }
  }

  @Property
  void splittingAPodIntoEqualPodsKeepsTheSumOfTargetsWithinKQuanta(
      @ForAll("nodes") Node node,
      @ForAll @IntRange(min = 1, max = 4_000) int partRequestMilli,
      @ForAll @IntRange(min = 2, max = 8) int k,
      @ForAll("quanta") long quantumMilli,
      @ForAll @IntRange(min = 0, max = 64_000) int extraAllocatableMilli) {
    // given no floor and no caps (docs/design/policy.md, scale invariance), and a node that also holds one
    // pod of k·r, or instead k pods of r each
    PolicyConfig config =
        PolicyConfig.DEFAULTS.withMinBurstFloorMilli(0).withMaxMultiplier(0).withQuantumMilli(quantumMilli);
    List<PodInput> others = node.pods().stream().map(p -> new PodInput(p.key(), p.requestMilli(),
        p.currentLimitMilli(), p.managed(), 0)).toList();
    long total = others.stream().mapToLong(PodInput::requestMilli).sum() + (long) k * partRequestMilli;
    long allocatable = total + extraAllocatableMilli;

    List<PodInput> whole = new ArrayList<>(others);
    whole.add(new PodInput("whole", (long) k * partRequestMilli, 0, true, 0));
    List<PodInput> split = new ArrayList<>(others);
    for (int i = 0; i < k; i++) {
      split.add(new PodInput("part-" + i, partRequestMilli, 0, true, 0));
    }
    // when
    Map<String, Long> wholeTargets = targets(SlackPolicy.computeNode(allocatable, whole, config));
    Map<String, Long> splitTargets = targets(SlackPolicy.computeNode(allocatable, split, config));
    // then
    long sumOfParts = 0;
    for (int i = 0; i < k; i++) {
      sumOfParts += splitTargets.get("part-" + i);
    }
    long tolerance = (long) k * Math.max(quantumMilli, 1);
    assertThat(sumOfParts).isBetween(wholeTargets.get("whole") - tolerance,
        wholeTargets.get("whole") + tolerance);
  }

  @Property
  void sameInputGivesTheSameOutputInTheSameOrder(
      @ForAll("nodes") Node node, @ForAll("configs") PolicyConfig config) {
    // when computed twice, the second time from a fresh copy of the input
    NodeResult first = SlackPolicy.computeNode(node.allocatableMilli(), node.pods(), config);
    NodeResult second =
        SlackPolicy.computeNode(node.allocatableMilli(), new ArrayList<>(node.pods()), config);
    // then the results are equal, and the decisions follow the managed pods' input order
    assertThat(second).isEqualTo(first);
    assertThat(first.decisions())
        .extracting(Decision::key)
        .containsExactlyElementsOf(
            node.pods().stream().filter(PodInput::managed).map(PodInput::key).toList());
  }

  // ---------------------------------------------------------------- generators

  @Provide
  Arbitrary<Node> nodes() {
    Arbitrary<List<PodInput>> pods = pods().list().ofMaxSize(40);
    return Combinators.combine(Arbitraries.longs().between(0, 128_000), pods)
        .as(
            (allocatable, list) -> {
              List<PodInput> keyed = new ArrayList<>(list.size());
              for (int i = 0; i < list.size(); i++) {
                PodInput p = list.get(i);
                keyed.add(new PodInput("pod-" + i, p.requestMilli(), p.currentLimitMilli(),
                    p.managed(), p.userCapMilli()));
              }
              return new Node(allocatable, keyed);
            });
  }

  /**
   * One pod. A managed pod has a CPU request (docs/design/headroom-design.txt §6.3: eligibility requires a request &gt; 0 on
   * every app container); an unmanaged one may have none.
   */
  @Provide
  Arbitrary<PodInput> pods() {
    Arbitrary<Long> request =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.longs().between(1, 8_000)),
            Tuple.of(1, Arbitraries.of(1L, 10L, 100L, 1_000L)));
    Arbitrary<Long> current =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(0L)), Tuple.of(3, Arbitraries.longs().between(1, 80_000)));
    Arbitrary<Long> userCap =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(0L)), Tuple.of(1, Arbitraries.longs().between(1, 20_000)));
    return Combinators.combine(request, current, Arbitraries.of(true, false), userCap,
            Arbitraries.integers().between(0, 4))
        .as((r, c, managed, cap, zeroChance) -> new PodInput("p",
            !managed && zeroChance == 0 ? 0 : r, c, managed, cap));
  }

  @Provide
  Arbitrary<PolicyConfig> configs() {
    Arbitrary<Long> floor = Arbitraries.of(0L, 1L, 100L, 1_000L, 2_500L);
    Arbitrary<Double> multiplier =
        Arbitraries.oneOf(
            Arbitraries.of(0.0, -1.0, 1.0, 1.5, 2.0, 10.0),
            Arbitraries.doubles().between(1.0, 20.0).ofScale(2));
    Arbitrary<Double> grow = Arbitraries.of(0.0, 0.05, 0.10, 0.5);
    Arbitrary<Double> shrink = Arbitraries.of(0.0, 0.05, 0.10);
    return Combinators.combine(floor, multiplier, grow, shrink, quanta()).as(PolicyConfig::new);
  }

  @Provide
  Arbitrary<Long> quanta() {
    return Arbitraries.of(0L, 1L, 2L, 3L, 5L, 10L, 25L, 100L);
  }

  // ---------------------------------------------------------------- helpers

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
