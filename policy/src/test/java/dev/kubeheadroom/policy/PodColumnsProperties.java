package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The policy's column entry point ({@link SlackPolicy#computeNode(long, PodColumns, PolicyConfig)},
 * what the topology decides with) against its record entry point and its explained steps, on
 * random nodes over the whole 64-bit millicore range: the same aggregates, and for each managed
 * pod, in order, the same target, reason and apply; the target {@link SlackPolicy#trace} explains
 * is the one decided. The shortcuts taken for the common case (one container, no LimitRange)
 * give what the general steps give.
 */
class PodColumnsProperties {

  @Property
  void theColumnsDecideAsTheRecords(
      @ForAll("quantities") long allocatableMilli,
      @ForAll("podLists") List<PodInput> pods,
      @ForAll("configs") PolicyConfig config) {
    // given the pods as columns, row by row
    PodColumns columns = new PodColumns(pods.size());
    for (int i = 0; i < pods.size(); i++) {
      PodInput p = pods.get(i);
      columns.set(i, p.requestMilli(), p.currentLimitMilli(), p.managed(), p.userCapMilli());
    }
    // when
    NodeStats stats = SlackPolicy.computeNode(allocatableMilli, columns, config);
    NodeResult records = SlackPolicy.computeNode(allocatableMilli, pods, config);
    // then
    assertThat(stats).isEqualTo(records.stats());
    int managed = 0;
    for (int i = 0; i < pods.size(); i++) {
      PodInput pod = pods.get(i);
      if (!pod.managed()) {
        assertThat(columns.reason(i)).isNull();
        assertThat(columns.apply(i)).isFalse();
        continue;
      }
      Decision decision = records.decisions().get(managed++);
      assertThat(columns.decision(i, pod.key())).isEqualTo(decision);
      assertThat(columns.targetMilli(i)).isEqualTo(decision.targetLimitMilli());
      assertThat(columns.apply(i)).isEqualTo(decision.apply());
      assertThat(columns.reason(i)).isEqualTo(decision.reason());
      TargetTrace trace = SlackPolicy.trace(pod, stats, config);
      assertThat(trace.targetMilli()).isEqualTo(decision.targetLimitMilli());
      assertThat(trace.capMilli()).isEqualTo(SlackPolicy.cap(pod, stats, config).hiMilli());
      assertThat(decision).isEqualTo(SlackPolicy.deadband(pod, trace.targetMilli(), config));
    }
    assertThat(managed).isEqualTo(records.decisions().size());
  }

  @Property
  void aRowSetAgainForgetsItsLastVerdict(
      @ForAll("quantities") long allocatableMilli,
      @ForAll("podLists") List<PodInput> pods,
      @ForAll("configs") PolicyConfig config) {
    PodColumns columns = PodColumns.of(pods);
    SlackPolicy.computeNode(allocatableMilli, columns, config);
    for (int i = 0; i < pods.size(); i++) {
      PodInput p = pods.get(i);
      columns.set(i, p.requestMilli(), p.currentLimitMilli(), false, p.userCapMilli());
      assertThat(columns.reason(i)).isNull();
      assertThat(columns.apply(i)).isFalse();
      assertThat(columns.targetMilli(i)).isZero();
    }
  }

  @Property
  void oneContainerSplitsAsItDoesBesideAContainerWithoutARequest(
      @ForAll("quantities") long targetMilli,
      @ForAll("quantities") long requestMilli,
      @ForAll("quantities") long limitMilli) {
    ContainerInput only = new ContainerInput("c", requestMilli, limitMilli, false);
    long[] alone = PodPlanner.split(targetMilli, List.of(only));
    long[] general = PodPlanner.split(targetMilli, List.of(only, new ContainerInput("z", 0, limitMilli, false)));
    assertThat(alone).containsExactly(general[0]);
  }

  @Property
  void withoutALimitRangeNoContainerIsCapped(@ForAll("containerLists") List<ContainerInput> containers,
      @ForAll("quantities") long fixedMilli) {
    // what the steps come to with every cap at 0 (none), read at once
    assertThat(LimitRangeCaps.NONE.podTargetCapMilli(containers, fixedMilli)).isZero();
  }

  // ---------------------------------------------------------------- generators

  /** Small, realistic, near the top of the range, and the extremes. */
  @Provide
  Arbitrary<Long> quantities() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.longs().between(0, 100_000)),
        Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE)),
        Tuple.of(1, Arbitraries.longs().between(Long.MAX_VALUE - 1_000_000, Long.MAX_VALUE)),
        Tuple.of(1, Arbitraries.of(0L, 1L, 9_000_000_000_000_000_000L, Long.MAX_VALUE / 2,
            Long.MAX_VALUE - 1, Long.MAX_VALUE)));
  }

  @Provide
  Arbitrary<List<PodInput>> podLists() {
    Arbitrary<PodInput> pod = Combinators.combine(quantities(), quantities(), Arbitraries.of(true, true, false),
            Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0L)), Tuple.of(1, quantities())))
        .as((r, c, managed, cap) -> new PodInput("p", r, c, managed, cap));
    return pod.list().ofMaxSize(8).map(list -> {
      List<PodInput> keyed = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        PodInput p = list.get(i);
        keyed.add(new PodInput("pod-" + i, p.requestMilli(), p.currentLimitMilli(), p.managed(), p.userCapMilli()));
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
            named.add(new ContainerInput("c" + i, c.requestMilli(), c.currentLimitMilli(), c.memoryGuaranteed()));
          }
          return named;
        });
  }

  @Provide
  Arbitrary<PolicyConfig> configs() {
    return Combinators.combine(
            Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(0L, 1_000L)), Tuple.of(1, quantities())),
            Arbitraries.of(0.0, 1.5, 10.0, 1e300),
            Arbitraries.of(0.0, 0.05, 0.10, 0.5),
            Arbitraries.of(0.0, 0.05, 0.10, 0.5),
            Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(0L, 1L, 10L, 1_000L)), Tuple.of(1, quantities())))
        .as(PolicyConfig::new);
  }
}
