package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The API server accepts CPU quantities up to the 64-bit millicore range: over that
 * whole range the policy and the planner give an answer, never an exception, and keep their
 * invariants. Sums saturate at {@link Long#MAX_VALUE} ({@link Saturating}).
 */
class FullRangeProperties {

  @Property
  void theNodeIsComputedAndEveryTargetStaysBetweenTheRequestAndItsCap(
      @ForAll("quantities") long allocatableMilli,
      @ForAll("podLists") List<PodInput> pods,
      @ForAll("configs") PolicyConfig config) {
    // when
    NodeResult result = SlackPolicy.computeNode(allocatableMilli, pods, config);
    // then the aggregates are the exact sums, saturated
    BigInteger total = pods.stream().map(p -> BigInteger.valueOf(p.requestMilli()))
        .reduce(BigInteger.ZERO, BigInteger::add);
    assertThat(result.stats().totalRequestsMilli())
        .isEqualTo(total.min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact());
    assertThat(result.stats().slackMilli()).isBetween(0L, allocatableMilli);
    // and request ≤ target ≤ max(request, allocatable, userCap) for every managed pod
    int i = 0;
    for (PodInput pod : pods) {
      if (!pod.managed()) {
        continue;
      }
      Decision d = result.decisions().get(i++);
      long hi = allocatableMilli;
      if (pod.userCapMilli() > 0) {
        hi = Math.min(hi, pod.userCapMilli());
      }
      assertThat(d.targetLimitMilli()).as("target of %s", pod)
          .isGreaterThanOrEqualTo(pod.requestMilli())
          .isLessThanOrEqualTo(Math.max(pod.requestMilli(), hi));
    }
  }

  @Property
  void theSplitSumsExactlyToTheTargetAndIsProRataAtAnyQuantity(
      @ForAll("containerLists") List<ContainerInput> containers,
      @ForAll("quantities") long targetMilli) {
    // when
    long[] parts = PodPlanner.split(targetMilli, containers);
    // then, in exact arithmetic: each part is floor(T·r/R) or one more, and they sum to T
    BigInteger total = containers.stream().map(c -> BigInteger.valueOf(c.requestMilli()))
        .reduce(BigInteger.ZERO, BigInteger::add);
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < parts.length; i++) {
      long r = containers.get(i).requestMilli();
      if (total.signum() == 0 || r == 0) {
        assertThat(parts[i]).isZero();
        continue;
      }
      BigInteger floor = BigInteger.valueOf(targetMilli).multiply(BigInteger.valueOf(r)).divide(total);
      assertThat(BigInteger.valueOf(parts[i])).isBetween(floor, floor.add(BigInteger.ONE));
      sum = sum.add(BigInteger.valueOf(parts[i]));
    }
    if (total.signum() > 0) {
      assertThat(sum).isEqualTo(BigInteger.valueOf(targetMilli));
    }
  }

  @Property
  void aPodIsPlannedAtAnyQuantity(
      @ForAll("containerLists") List<ContainerInput> containers,
      @ForAll("quantities") long allocatableMilli,
      @ForAll("configs") PolicyConfig config,
      @ForAll("caps") LimitRangeCaps caps) {
    // given the pod as the topology builds it, LimitRange cap included
    long request = ContainerInput.podRequestMilli(containers);
    PodInput pod = new PodInput("pod", request, ContainerInput.podCurrentLimitMilli(containers), true,
        caps.podTargetCapMilli(containers, 0));
    // when
    NodeResult result = SlackPolicy.computeNode(allocatableMilli, List.of(pod), config);
    PodPlan plan = PodPlanner.plan(result.decisions().get(0), pod, containers, config);
    // then no container's planned limit is negative
    assertThat(plan.containers()).allSatisfy(t -> assertThat(t.toMilli()).isNotNegative());
  }

  // ---------------------------------------------------------------- generators

  /** Small, realistic, near the top of the range, and the extremes. */
  @Provide
  Arbitrary<Long> quantities() {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.longs().between(0, 100_000)),
        Tuple.of(2, Arbitraries.longs().between(0, Long.MAX_VALUE)),
        Tuple.of(2, Arbitraries.longs().between(Long.MAX_VALUE - 1_000_000, Long.MAX_VALUE)),
        Tuple.of(1, Arbitraries.of(0L, 1L, 9_000_000_000_000_000_000L, Long.MAX_VALUE / 2,
            Long.MAX_VALUE - 1, Long.MAX_VALUE)));
  }

  @Provide
  Arbitrary<List<PodInput>> podLists() {
    Arbitrary<PodInput> pod = Combinators.combine(quantities(), quantities(), Arbitraries.of(true, false),
            Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0L)), Tuple.of(1, quantities())))
        .as((r, c, managed, cap) -> new PodInput("p", r, c, managed, cap));
    return pod.list().ofMaxSize(8).map(list -> {
      List<PodInput> keyed = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        PodInput p = list.get(i);
        keyed.add(new PodInput("pod-" + i, p.requestMilli(), p.currentLimitMilli(), p.managed(),
            p.userCapMilli()));
      }
      return keyed;
    });
  }

  @Provide
  Arbitrary<List<ContainerInput>> containerLists() {
    return Combinators.combine(quantities(), quantities(), Arbitraries.of(true, false))
        .as((r, l, mem) -> new ContainerInput("c", r, l, mem))
        .list().ofMinSize(1).ofMaxSize(6)
        .map(list -> {
          List<ContainerInput> named = new ArrayList<>();
          for (int i = 0; i < list.size(); i++) {
            ContainerInput c = list.get(i);
            named.add(new ContainerInput("c" + i, c.requestMilli(), c.currentLimitMilli(),
                c.memoryGuaranteed()));
          }
          return named;
        });
  }

  @Provide
  Arbitrary<PolicyConfig> configs() {
    return Combinators.combine(
            Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(0L, 1_000L)), Tuple.of(1, quantities())),
            Arbitraries.of(0.0, 1.5, 10.0, 1e300),
            Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(0L, 1L, 10L, 1_000L)), Tuple.of(1, quantities())))
        .as((floor, multiplier, quantum) -> new PolicyConfig(floor, multiplier, 0.10, 0.05, quantum));
  }

  @Provide
  Arbitrary<LimitRangeCaps> caps() {
    Arbitrary<Long> optional = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0L)), Tuple.of(1, quantities()));
    return Combinators.combine(optional, optional, optional).as(LimitRangeCaps::new);
  }
}
