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
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of {@link PodPlanner}: docs/design/policy.md, "Splitting a pod's target across its containers"
 * and "QoS must never change".
 */
class PodPlannerProperties {

  @Property
  void splitSumsExactlyToTheTargetAndIsProRataWithinOneMillicore(
      @ForAll("containers") List<ContainerInput> containers,
      @ForAll @IntRange(min = 0, max = 100_000) int burstMilli) {
    long total = ContainerInput.podRequestMilli(containers);
    Assume.that(total > 0);
    // given any target at or above the pod's request
    long target = total + burstMilli;
    // when
    long[] parts = PodPlanner.split(target, containers);
    // then
    long sum = 0;
    for (int i = 0; i < parts.length; i++) {
      ContainerInput c = containers.get(i);
      double exact = (double) target * c.requestMilli() / total;
      if (c.requestMilli() == 0) {
        assertThat(parts[i]).as("zero-request container %s", c.name()).isZero();
      } else {
        assertThat(parts[i]).as("container %s", c.name()).isGreaterThanOrEqualTo(c.requestMilli());
        assertThat((double) parts[i]).isBetween(Math.floor(exact), Math.floor(exact) + 1);
      }
      sum += parts[i];
    }
    assertThat(sum).isEqualTo(target);
  }

  @Property
  void planNeverLeavesEveryContainerWithLimitEqualToRequestWhenMemoryIsGuaranteed(
      @ForAll("containers") List<ContainerInput> drawn,
      @ForAll @IntRange(min = 0, max = 5_000) int burstMilli,
      @ForAll boolean hasLimit,
      @ForAll("quanta") long quantumMilli) {
    // given a pod whose every container has a CPU request and memory request = limit
    List<ContainerInput> containers = new ArrayList<>();
    for (ContainerInput c : drawn) {
      long request = Math.max(c.requestMilli(), 1);
      containers.add(new ContainerInput(c.name(), request, hasLimit ? request * 2 : 0, true));
    }
    PolicyConfig config = PolicyConfig.DEFAULTS.withQuantumMilli(quantumMilli);
    PodInput pod =
        new PodInput("pod", ContainerInput.podRequestMilli(containers),
            ContainerInput.podCurrentLimitMilli(containers), true, 0);
    long target = pod.requestMilli() + burstMilli;
    Decision decision = SlackPolicy.deadband(pod, target, config);
    // when
    PodPlan plan = PodPlanner.plan(decision, pod, containers, config);
    // then applying the plan does not make every CPU limit equal its request (QoS stays Burstable)
    List<Long> after = new ArrayList<>();
    for (ContainerInput c : containers) {
      long limit = c.currentLimitMilli();
      for (ContainerTarget t : plan.containers()) {
        if (t.name().equals(c.name())) {
          limit = t.toMilli();
        }
      }
      after.add(limit);
    }
    List<Long> requests = containers.stream().map(ContainerInput::requestMilli).toList();
    assertThat(after).isNotEqualTo(requests);
  }

  @Provide
  Arbitrary<List<ContainerInput>> containers() {
    Arbitrary<Long> request =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(1, Arbitraries.just(0L)),
            net.jqwik.api.Tuple.of(4, Arbitraries.longs().between(1, 4_000)));
    return Combinators.combine(request, Arbitraries.longs().between(0, 8_000))
        .as((r, limit) -> new ContainerInput("c", r, limit, false))
        .list()
        .ofMinSize(1)
        .ofMaxSize(8)
        .map(
            list -> {
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
  Arbitrary<Long> quanta() {
    return Arbitraries.of(0L, 1L, 10L, 100L);
  }
}
