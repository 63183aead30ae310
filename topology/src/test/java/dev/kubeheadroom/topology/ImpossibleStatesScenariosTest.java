package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.node;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * States the API server would never hold, through the production topology (the live pipeline's
 * and {@code simulate}'s): a limit asked for below its request, a re-registered node whose
 * running pods are forgotten, a cap below the QoS floor that silently keeps an old limit.
 */
class ImpossibleStatesScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private PodChange change(List<NodeDecision> ds, String name) {
    return ds.stream().flatMap(d -> d.changes().stream()).filter(c -> c.name().equals(name))
        .reduce((a, b) -> b).orElse(null);
  }

  private static PodSnapshot guaranteedMemory(String name, long request, long limit, long maxCpu) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", "Burstable", "1", 1, null, maxCpu,
        null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, request, limit, true, false)), ResizeStatus.NONE);
  }

  @Test
  void aRequestRaisedAboveItsLimitWithinTheDeadbandMovesTheLimit() {
    // given a full 2-core node, and a at Headroom's 1000m limit (its request)
    h.send(node("n1", 2_000));
    h.send(pod("team-a", "other", "n1", 1_000, 0));
    h.send(pod("team-a", "a", "n1", 1_000, 0));
    h.settle();
    assertThat(change(h.decisions(), "a").targetMilli()).isEqualTo(1_000);
    h.send(pod("team-a", "a", "n1", 1_000, 1_000));
    h.settle();
    h.decisions();
    // when a's request is raised to 1050m over that limit (as simulate's model holds it: a log
    // line changes a request, Headroom owns the limit)
    h.send(pod("team-a", "a", "n1", 1_050, 1_000));
    h.settle();
    // then the limit moves to the new request, though 1050m is within the 10 % grow band
    PodChange again = change(h.decisions(), "a");
    assertThat(again).isNotNull();
    assertThat(again.targetMilli()).isEqualTo(1_050);
    assertThat(again.reason()).isEqualTo("below-request");
  }

  @Test
  void aNodeDeletedAndRegisteredAgainKeepsItsRunningPodsBooked() {
    // given a 1500m pod on a 2-core node
    h.send(node("n1", 2_000));
    h.send(pod("team-a", "a", "n1", 1_500, 0));
    h.settle();
    h.decisions();
    // when the Node object is deleted and the kubelet registers it again, its pod still running
    h.send(new NodeRemoved("n1"));
    h.settle();
    h.send(node("n1", 2_000));
    h.send(pod("team-a", "b", "n1", 100, 0));
    h.settle();
    // then the new pod shares only the 400m a does not book, and a's limit fits the node
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).isNotEmpty();
    NodeDecision last = ds.get(ds.size() - 1);
    assertThat(last.stats().slackMilli()).isEqualTo(400);
    PodChange b = change(ds, "b");
    assertThat(b.targetMilli()).isLessThanOrEqualTo(500);
    PodChange a = change(ds, "a");
    if (a != null) {
      assertThat(a.targetMilli()).isLessThanOrEqualTo(2_000);
    }
  }

  @Test
  void aCapBelowTheQosFloorGivesRequestPlusOneQuantumWithItsReason() {
    // given a full node and a memory-Guaranteed pod holding 8 cores of limit, max-cpu 500m = its request
    h.send(node("n1", 2_000));
    h.send(pod("team-a", "other", "n1", 1_500, 0));
    h.send(guaranteedMemory("capped", 500, 8_000, 500));
    h.settle();
    // then its limit comes down to request + one quantum, and the decision says why
    PodChange c = change(h.decisions(), "capped");
    assertThat(c).isNotNull();
    assertThat(c.targetMilli()).isEqualTo(510);
    assertThat(c.reason()).isEqualTo("cap-below-qos-floor");
  }
}
