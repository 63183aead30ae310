package dev.kubeheadroom.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The gang guarantees of {@link UniformCeiling} (docs/design/headroom-design.txt §11.6), over
 * generated gangs of one to twelve members with different requests and own-node targets, up to
 * the 64-bit range.
 */
class UniformCeilingProperties {

  @Property(tries = 500)
  void noMemberGetsMoreThanItsOwnNodeWouldGiveIt(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // when
    long[] targets = UniformCeiling.targets(gang, quantum);
    // then every member stays within its own node's target (and so within its caps)
    for (int i = 0; i < gang.size(); i++) {
      assertThat(targets[i]).as("member %s", gang.get(i)).isLessThanOrEqualTo(gang.get(i).targetMilli());
    }
  }

  @Property(tries = 500)
  void noMemberFallsBelowItsRequest(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // when
    long[] targets = UniformCeiling.targets(gang, quantum);
    // then
    for (int i = 0; i < gang.size(); i++) {
      assertThat(targets[i]).as("member %s", gang.get(i)).isGreaterThanOrEqualTo(gang.get(i).requestMilli());
    }
  }

  @Property(tries = 500)
  void theCeilingIsTheLowestRatioAndEveryMemberKeepsToIt(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // when
    long[] targets = UniformCeiling.targets(gang, quantum);
    // then no member's target/request exceeds the lowest member's own ratio, unless it is pinned at
    // its request (a ratio below 1 cannot be followed)
    GangRatio ceiling = GangRatio.lowest(gang);
    for (int i = 0; i < gang.size(); i++) {
      GangRatio own = gang.get(i);
      assertThat(ceiling.compareTo(own)).isLessThanOrEqualTo(0);
      if (targets[i] > own.requestMilli()) {
        assertThat(new GangRatio(targets[i], own.requestMilli()).compareTo(ceiling))
            .as("member %s under ceiling %s", own, ceiling).isLessThanOrEqualTo(0);
      }
    }
  }

  @Property(tries = 500)
  void aMemberLeavingNeverLowersTheOthers(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // given the gang, and the gang without one member
    int leaving = Math.floorMod(gang.hashCode(), gang.size());
    List<GangRatio> rest = new ArrayList<>(gang);
    rest.remove(leaving);
    // when
    long[] before = UniformCeiling.targets(gang, quantum);
    long[] after = UniformCeiling.targets(rest, quantum);
    // then
    for (int i = 0, j = 0; i < gang.size(); i++) {
      if (i != leaving) {
        assertThat(after[j]).as("member %s", gang.get(i)).isGreaterThanOrEqualTo(before[i]);
        j++;
      }
    }
  }

  @Property(tries = 300)
  void theOrderOfTheMembersChangesNothing(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // given the same members shuffled
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < gang.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(gang.hashCode()));
    List<GangRatio> shuffled = order.stream().map(gang::get).toList();
    // when
    long[] targets = UniformCeiling.targets(gang, quantum);
    long[] shuffledTargets = UniformCeiling.targets(shuffled, quantum);
    // then each member gets the same target
    for (int k = 0; k < order.size(); k++) {
      assertThat(shuffledTargets[k]).isEqualTo(targets[order.get(k)]);
    }
  }

  @Property(tries = 500)
  void membersWithEqualRequestsGetEqualLimits(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // given the gang's requests all made the first member's (own targets kept at least that)
    long request = gang.get(0).requestMilli();
    List<GangRatio> equal = gang.stream()
        .map(m -> new GangRatio(Math.max(m.targetMilli(), request), request)).toList();
    // when
    long[] targets = UniformCeiling.targets(equal, quantum);
    // then one limit across the gang
    for (long t : targets) {
      assertThat(t).isEqualTo(targets[0]);
    }
  }

  @Property(tries = 500)
  void aLoweredTargetIsOnTheQuantumGrid(
      @ForAll("gangs") List<GangRatio> gang, @ForAll("quanta") long quantum) {
    // when
    long[] targets = UniformCeiling.targets(gang, quantum);
    // then a target the ceiling moved is a whole number of quanta, or the request itself
    for (int i = 0; i < gang.size(); i++) {
      GangRatio own = gang.get(i);
      if (quantum > 0 && targets[i] != own.targetMilli() && targets[i] != own.requestMilli()) {
        assertThat(targets[i] % quantum).as("member %s", own).isZero();
      }
    }
  }

  @Provide
  Arbitrary<Long> quanta() {
    return Arbitraries.of(0L, 1L, 10L, 100L);
  }

  @Provide
  Arbitrary<List<GangRatio>> gangs() {
    Arbitrary<Long> requests = Arbitraries.oneOf(
        Arbitraries.longs().between(1, 64_000), Arbitraries.longs().between(1, Long.MAX_VALUE));
    Arbitrary<GangRatio> member = Combinators.combine(requests, Arbitraries.longs().between(0, 200_000))
        .as((request, extra) -> new GangRatio(Saturating.add(request, extra), request));
    return member.list().ofMinSize(1).ofMaxSize(12);
  }
}
