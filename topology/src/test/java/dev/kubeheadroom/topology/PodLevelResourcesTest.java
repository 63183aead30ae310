package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.topology.booking.Eligibility;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API server refuses {@code pods/resize} for a pod with pod-level {@code spec.resources}
 * (pkg/registry/core/pod/strategy.go, 422), so such a pod is never managed; it still books slack.
 */
class PodLevelResourcesTest {
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

  private static PodSnapshot podLevel(PodSnapshot p) {
    return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), p.phase(), p.qosClass(),
        p.resourceVersion(), p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(),
        p.vpaControlsLimits(), p.owners(), p.containers(), p.resize(), true);
  }

  @Test
  void aPodWithPodLevelResourcesIsNotManagedButBooksItsRequest() {
    // given a pod with pod-level resources (4 cores) and a plain pod (2 cores)
    PodSnapshot boxed = podLevel(pod("team-a", "boxed", "n1", 4_000, 0));
    h.send(boxed);
    h.send(pod("team-a", "web", "n1", 2_000, 0));
    h.settle();
    // then only the plain pod gets a limit, from the 10 cores the two leave
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    assertThat(ds.get(0).changes()).extracting(PodChange::name).containsExactly("web");
    assertThat(ds.get(0).stats().slackMilli()).isEqualTo(10_000);
    assertThat(Eligibility.whyNot(new PodEntry(boxed, null, null, false), node16(), managedNs("team-a"),
        enforcing(), TopologyHarness.T0)).isEqualTo(dev.kubeheadroom.schemas.Ineligibility.POD_LEVEL_RESOURCES);
  }
}
