package dev.kubeheadroom.topology.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeDecider} reads each snapshot's {@link PodFacts} (computed once per snapshot) and the
 * node's pods as columns ({@link PodRows}), and makes the policy's records only for pods whose
 * decision changes something. Held here to the plain form ({@link PlainNodeDecider}: every gate,
 * view and input rebuilt per pod per decision, the record entry point of the policy) on random
 * bookings: the same views, the same step (booking, touched pods, decision record) and the same
 * gangs, for every one.
 */
class NodeDeciderRowsTest {
  private static final int BOOKINGS = 20_000;

  @Test
  void everyDecisionIsThePlainOne() {
    RandomBookings random = new RandomBookings(11);
    int decided = 0;
    int withGangs = 0;
    for (int i = 0; i < BOOKINGS; i++) {
      NodeBooking booking = random.booking();
      ClusterConfig config = random.config();
      Map<String, NamespaceInfo> namespaces = random.namespaces();
      Map<String, CeilingRatio> ceilings = random.ceilings();
      String at = "booking " + i + ": " + booking + " under " + config + ", " + namespaces + ", " + ceilings;

      assertThat(NodeDecider.views(booking, config, namespaces::get, RandomBookings.NOW)).as(at)
          .isEqualTo(PlainNodeDecider.views(booking, config, namespaces::get, RandomBookings.NOW));
      NodeDecider.Decided rows = NodeDecider.decide(booking, config, namespaces::get, ceilings, RandomBookings.NOW);
      PlainNodeDecider.Plain plain = PlainNodeDecider.decide(booking, config, namespaces::get, ceilings,
          RandomBookings.NOW);
      assertThat(rows.step().decision()).as(at).isEqualTo(plain.decision());
      assertThat(rows.step().booking()).as(at).isEqualTo(plain.booking());
      assertThat(rows.step().touchedPods()).as(at).isEqualTo(plain.touched());
      assertThat(rows.step().dirty()).isFalse();
      assertThat(rows.step().nodeTouched()).isFalse();
      assertThat(rows.gangs().report()).as(at).isEqualTo(plain.report());
      for (String uid : booking.pods().keySet()) {
        assertThat(rows.gangs().gangOf(uid)).as(at).isEqualTo(plain.gangByUid().get(uid));
        assertThat(rows.gangs().ceilingOf(uid)).as(at).isEqualTo(plain.ceilingByUid().get(uid));
      }
      decided += plain.decision().isPresent() ? 1 : 0;
      withGangs += plain.report().isEmpty() ? 0 : 1;
    }
    // the bookings reach both outcomes often enough for the comparison to mean something
    assertThat(decided).isBetween(BOOKINGS / 20, BOOKINGS - BOOKINGS / 20);
    assertThat(withGangs).isGreaterThan(BOOKINGS / 50);
  }

  @Test
  void aSnapshotsFactsAreWhatItsPlainFormGives() {
    RandomBookings random = new RandomBookings(12);
    for (int i = 0; i < BOOKINGS; i++) {
      for (PodEntry entry : random.booking().pods().values()) {
        PodSnapshot pod = entry.pod();
        PodFacts facts = entry.facts();
        List<ContainerInput> containers = PlainNodeDecider.views(
            new NodeBooking(pod.node(), null, new TreeMap<>(Map.of(pod.uid(), PodEntry.of(pod)))), ClusterConfig.DEFAULTS,
            ns -> null, RandomBookings.NOW).get(pod.uid()).containers();
        assertThat(facts.readFrom(pod)).isTrue();
        assertThat(facts.namespace()).isEqualTo(pod.namespace());
        assertThat(facts.maxCpuMilli()).isEqualTo(pod.maxCpuMilli());
        assertThat(facts.snapshotGate()).isEqualTo(snapshotGate(entry));
        assertThat(facts.requestMilli()).isEqualTo(pod.effectiveRequestMilli());
        assertThat(facts.containers()).isEqualTo(containers);
        assertThat(facts.currentLimitMilli())
            .isEqualTo(ContainerInput.podCurrentLimitMilli(containers));
        assertThat(facts.fixedLimitsMilli()).isEqualTo(PlainNodeDecider.fixedLimitsMilli(pod, containers));
        assertThat(facts.gang(List.of())).isEqualTo(GangKey.of(pod, List.of()));
        assertThat(facts.gang(List.of("Job"))).isEqualTo(GangKey.of(pod, List.of("Job")));
      }
    }
  }

  /** The plain gates' answer where only the snapshot's gates can fail (a resizable node, a managed namespace). */
  private static Ineligibility snapshotGate(PodEntry entry) {
    PodEntry noBackoff = new PodEntry(entry.pod(), null, null, false, 0);
    NamespaceInfo managed = new NamespaceInfo("managed", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
    return PlainNodeDecider.whyNot(noBackoff, new NodeSnapshot("n", 1, "linux", false, Map.of()), managed,
        ClusterConfig.DEFAULTS, RandomBookings.NOW);
  }

  @Test
  void anEntryKeepsItsFactsWhileItsSnapshotStaysAndNeverComparesThem() {
    RandomBookings random = new RandomBookings(13);
    for (int i = 0; i < 1_000; i++) {
      for (PodEntry entry : random.booking().pods().values()) {
        PodFacts facts = entry.facts();
        assertThat(entry.withPending(null).facts()).isSameAs(facts);
        assertThat(entry.withBackoff(RandomBookings.NOW, true).facts()).isSameAs(facts);
        assertThat(entry.refused(RandomBookings.NOW).facts()).isSameAs(facts);
        assertThat(entry.cleared().facts()).isSameAs(facts);
        // facts read from another snapshot are not taken: an entry's facts are always its pod's
        PodSnapshot other = entry.pod().withGang("moved");
        PodEntry moved = new PodEntry(other, entry.pending(), null, false, 0, facts);
        assertThat(moved.facts()).isNotSameAs(facts);
        assertThat(moved.facts().readFrom(other)).isTrue();
        assertThat(entry.withPod(other).facts().readFrom(other)).isTrue();
        // an equal copy of the snapshot makes an equal entry, whichever facts each holds
        PodEntry copy = new PodEntry(entry.pod().withContainers(entry.pod().containers()), entry.pending(),
            entry.backoffSince(), entry.infeasibleSeen(), entry.refusals());
        assertThat(copy.facts()).isNotSameAs(facts);
        assertThat(copy).isEqualTo(entry).hasSameHashCodeAs(entry).hasToString(entry.toString());
        assertThat(copy).isNotEqualTo(copy.refused(RandomBookings.NOW));
      }
    }
  }

  @Test
  void rowsLentWhileAnotherDecisionHoldsTheSpareOnesAreTheirOwn() {
    RandomBookings random = new RandomBookings(14);
    for (int i = 0; i < 1_000; i++) {
      NodeBooking outer = random.booking();
      NodeBooking inner = random.booking();
      ClusterConfig config = random.config();
      Map<String, NamespaceInfo> namespaces = random.namespaces();
      PodRows held = PodRows.lend(outer, config, namespaces::get, RandomBookings.NOW);
      PodRows other = PodRows.lend(inner, config, namespaces::get, RandomBookings.NOW);
      assertThat(other).isNotSameAs(held);
      for (int row = 0; row < held.size(); row++) {
        assertThat(held.entry(row)).isSameAs(outer.pods().values().toArray()[row]);
      }
      other.giveBack();
      held.giveBack();
      assertThat(PodRows.lend(inner, config, namespaces::get, RandomBookings.NOW)).isSameAs(held);
      held.giveBack();
    }
  }
}
