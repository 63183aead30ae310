package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.Eligibility;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Absurd quantities: the API server accepts CPU requests up to the 64-bit millicore range (two
 * containers of 9000000000000000 cores bound to a node are a valid pod). Such a pod must not stop
 * the topology: it is a named skip, the node's booking saturates, and the next events still flow.
 */
class AbsurdQuantitiesTest {
  @TempDir Path stateDir;
  TopologyHarness h;

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
    h.send(node16());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private static PodSnapshot huge() {
    long nineQuadrillionCores = 9_000_000_000_000_000_000L; // millicores
    return new PodSnapshot("uid-huge", "team-a", "huge", "n1", "Running", "Burstable", "1", 1, null,
        0, null, false, List.of(),
        List.of(new ContainerSnapshot("a", ContainerKind.APP, nineQuadrillionCores, 0, false, false),
            new ContainerSnapshot("b", ContainerKind.APP, nineQuadrillionCores, 0, false, false)),
        ResizeStatus.NONE);
  }

  @Test
  void aPodRequestingPastTheLongRangeIsSkippedAndTheTopologyKeepsDeciding() {
    // given the absurd pod and a normal one on the same node
    h.send(huge());
    h.send(pod("team-a", "web", "n1", 1_005, 0));
    h.settle();
    // then the node is booked full (the sum saturates), the normal pod is set to its quantized
    // request, the absurd one is skipped by name, and nothing went to the dead letters
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    assertThat(ds.get(0).stats().totalRequestsMilli()).isEqualTo(Long.MAX_VALUE);
    assertThat(ds.get(0).changes()).extracting(PodChange::name, PodChange::targetMilli)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("web", 1_010L));
    assertThat(h.deadLetters()).isEmpty();
    assertThat(Eligibility.whyNot(new PodEntry(huge(), null, null, false),
        node16(), managedNs("team-a"), enforcing(), TopologyHarness.T0)).isEqualTo(dev.kubeheadroom.schemas.Ineligibility.CPU_OUT_OF_RANGE);
    // when the absurd pod leaves
    h.send(new PodRemoved("uid-huge", "team-a", "huge", "n1"));
    h.settle();
    // then the node's slack comes back to the normal pod (the task was not stopped)
    List<NodeDecision> after = h.decisions();
    assertThat(after).isNotEmpty();
    assertThat(after.get(after.size() - 1).changes()).extracting(PodChange::name).containsExactly("web");
    assertThat(after.get(after.size() - 1).changes().get(0).targetMilli()).isGreaterThan(1_010L);
  }
}
