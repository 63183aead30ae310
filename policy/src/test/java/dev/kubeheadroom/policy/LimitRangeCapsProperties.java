package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * LimitRanger (plugin/pkg/admission/limitranger/admission.go) refuses a resize whose container
 * limit is over the Container max or the maxLimitRequestRatio, or whose summed limits are over
 * the Pod max. With {@link LimitRangeCaps#podTargetCapMilli} as the pod's user cap, the policy,
 * the largest-remainder split and the QoS guard never produce such a container limit.
 */
class LimitRangeCapsProperties {

  @Property
  void noContainerLimitExceedsAnyOfTheThreeCaps(
      @ForAll("containers") List<ContainerInput> containers,
      @ForAll("caps") LimitRangeCaps caps,
      @ForAll @IntRange(min = 0, max = 2_000) int fixedMilli,
      @ForAll @IntRange(min = 0, max = 64_000) int slackMilli,
      @ForAll("quanta") long quantumMilli,
      @ForAll boolean hasLimit) {
    long total = ContainerInput.podRequestMilli(containers);
    // given caps the pod satisfies at its requests (LimitRanger admitted it)
    for (ContainerInput c : containers) {
      long cap = caps.containerCapMilli(c.requestMilli());
      Assume.that(c.requestMilli() == 0 || cap == 0 || cap >= c.requestMilli());
    }
    Assume.that(caps.podMaxMilli() == 0 || caps.podMaxMilli() >= total + fixedMilli);
    List<ContainerInput> pod = new ArrayList<>();
    for (ContainerInput c : containers) {
      pod.add(new ContainerInput(c.name(), c.requestMilli(), hasLimit && c.requestMilli() > 0
          ? Math.max(c.requestMilli(), caps.containerCapMilli(c.requestMilli())) : 0, c.memoryGuaranteed()));
    }
    PolicyConfig config = PolicyConfig.DEFAULTS.withQuantumMilli(quantumMilli).withMaxMultiplier(0);
    PodInput input = new PodInput("pod", total, ContainerInput.podCurrentLimitMilli(pod), true,
        caps.podTargetCapMilli(pod, fixedMilli));
    // when the policy, the deadband and the planner run on a node with that much slack
    NodeResult result = SlackPolicy.computeNode(total + slackMilli, List.of(input), config);
    PodPlan plan = PodPlanner.plan(result.decisions().get(0), input, pod, config);
    // then every container's limit after the patch keeps all three caps
    long sum = fixedMilli;
    for (ContainerInput c : pod) {
      long limit = c.currentLimitMilli();
      for (ContainerTarget t : plan.containers()) {
        if (t.name().equals(c.name())) {
          limit = t.toMilli();
        }
      }
      sum += limit;
      if (c.requestMilli() == 0 || limit == 0) {
        continue;
      }
      if (caps.containerMaxMilli() > 0) {
        assertThat(limit).as("%s under the Container max", c.name()).isLessThanOrEqualTo(caps.containerMaxMilli());
      }
      if (caps.ratioMilli() > 0) {
        // LimitRanger's own float test, operation for operation
        boolean refused = (double) limit / (double) c.requestMilli() * 1000 > (double) caps.ratioMilli();
        assertThat(refused).as("%s at %dm for %dm under ratio %d", c.name(), limit, c.requestMilli(),
            caps.ratioMilli()).isFalse();
      }
    }
    if (caps.podMaxMilli() > 0 && plan.apply()) {
      assertThat(sum).as("summed limits under the Pod max").isLessThanOrEqualTo(caps.podMaxMilli());
    }
  }

  @Property
  void theRatioCapIsTheLargestLimitLimitRangerAccepts(
      @ForAll @IntRange(min = 1, max = 1_000_000) int requestMilli,
      @ForAll @IntRange(min = 1_000, max = 20_000) int ratioMilli) {
    long cap = LimitRangeCaps.ratioCapMilli(requestMilli, ratioMilli);
    assertThat(LimitRangeCaps.refusedByRatio(cap, requestMilli, ratioMilli)).isFalse();
    assertThat(LimitRangeCaps.refusedByRatio(cap + 1, requestMilli, ratioMilli)
        || (cap + 1) * 1000L > (long) requestMilli * ratioMilli).isTrue();
  }

  @Provide
  Arbitrary<List<ContainerInput>> containers() {
    Arbitrary<Long> request = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0L)), Tuple.of(6, Arbitraries.longs().between(1, 4_000)));
    return Combinators.combine(request, Arbitraries.of(true, false))
        .as((r, mem) -> new ContainerInput("c", r, 0, mem))
        .list().ofMinSize(1).ofMaxSize(6)
        .filter(list -> ContainerInput.podRequestMilli(list) > 0)
        .map(list -> {
          List<ContainerInput> named = new ArrayList<>();
          for (int i = 0; i < list.size(); i++) {
            ContainerInput c = list.get(i);
            named.add(new ContainerInput("c" + i, c.requestMilli(), 0, c.memoryGuaranteed()));
          }
          return named;
        });
  }

  @Provide
  Arbitrary<LimitRangeCaps> caps() {
    Arbitrary<Long> containerMax = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0L)), Tuple.of(2, Arbitraries.longs().between(1, 16_000)));
    Arbitrary<Long> podMax = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0L)), Tuple.of(2, Arbitraries.longs().between(1, 40_000)));
    Arbitrary<Long> ratio = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0L)), Tuple.of(1, Arbitraries.of(1_000L, 1_001L, 1_500L, 2_000L)),
        Tuple.of(2, Arbitraries.longs().between(1_000, 12_000)));
    return Combinators.combine(containerMax, podMax, ratio).as(LimitRangeCaps::new);
  }

  @Provide
  Arbitrary<Long> quanta() {
    return Arbitraries.of(0L, 1L, 10L, 100L);
  }
}
