package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LimitRange caps through the production topology. LimitRanger
 * (plugin/pkg/admission/limitranger/admission.go) refuses a resize with 403 when a container's
 * limit is over its {@code type: Container} max or its {@code maxLimitRequestRatio}, or the pod's
 * summed limits are over the {@code type: Pod} max; a decision must never ask for one.
 */
class LimitRangeScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.send(node16());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private static NamespaceInfo ns(long containerMax, long podMax, long ratioMilli) {
    return new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED),
        containerMax, podMax, ratioMilli);
  }

  private static PodSnapshot pod(ContainerSnapshot... containers) {
    return new PodSnapshot("uid-web", "team-a", "web", "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(containers), ResizeStatus.NONE);
  }

  private static ContainerSnapshot container(String name, ContainerKind kind, long request, long limit) {
    return new ContainerSnapshot(name, kind, request, limit, false, false);
  }

  private PodChange onlyChange() {
    List<NodeDecision> ds = h.decisions();
    assertThat(ds).hasSize(1);
    assertThat(ds.get(0).changes()).hasSize(1);
    return ds.get(0).changes().get(0);
  }

  private static long limitOf(PodChange change, String container) {
    return change.containers().stream().filter(c -> c.name().equals(container))
        .mapToLong(ContainerChange::toMilli).findFirst().orElseThrow();
  }

  @Test
  void aPodMaxCapsTheSumOfTheContainersLimits() {
    // given a Pod max of 3 CPUs; the pod alone on 16 cores would otherwise get 15 cores (10× cap)
    h.namespace(ns(0, 3_000, 0));
    // when an app (1000m) and a sidecar (500m) pod arrives
    h.send(pod(container("proxy", ContainerKind.SIDECAR, 500, 0),
        container("app", ContainerKind.APP, 1_000, 0)));
    h.settle();
    // then the pod's summed limits are exactly the Pod max, split 2:1
    PodChange change = onlyChange();
    assertThat(change.targetMilli()).isEqualTo(3_000);
    assertThat(limitOf(change, "app")).isEqualTo(2_000);
    assertThat(limitOf(change, "proxy")).isEqualTo(1_000);
  }

  @Test
  void aPodMaxLeavesRoomForTheLimitsHeadroomDoesNotSet() {
    // given a Pod max of 3 CPUs and a zero-request logger that keeps its own 500m limit
    h.namespace(ns(0, 3_000, 0));
    h.send(pod(container("app", ContainerKind.APP, 1_000, 0),
        container("logger", ContainerKind.APP, 0, 500)));
    h.settle();
    // then the app gets what the Pod max leaves: 2500m, the pod's sum 3000m
    assertThat(limitOf(onlyChange(), "app")).isEqualTo(2_500);
  }

  @Test
  void aRatioCapsEveryContainerAtItsOwnRequestTimesTheRatio() {
    // given maxLimitRequestRatio 1.5 and three uneven containers whose split leaves remainders
    h.namespace(ns(0, 0, 1_500));
    h.send(pod(container("a", ContainerKind.APP, 333, 0), container("b", ContainerKind.APP, 667, 0),
        container("c", ContainerKind.APP, 7, 0)));
    h.settle();
    // then no container's limit / request is above 1.5, after the split and the quantization
    PodChange change = onlyChange();
    assertThat(limitOf(change, "a")).isLessThanOrEqualTo(499).isGreaterThanOrEqualTo(333);
    assertThat(limitOf(change, "b")).isLessThanOrEqualTo(1_000).isGreaterThanOrEqualTo(667);
    assertThat(limitOf(change, "c")).isLessThanOrEqualTo(10).isGreaterThanOrEqualTo(7);
    assertThat(change.targetMilli()).isLessThanOrEqualTo(1_510).isGreaterThan(1_007);
  }

  @Test
  void theTightestOfContainerMaxPodMaxAndRatioWins() {
    // given a container max of 4 CPUs, a Pod max of 10 and a ratio of 3
    h.namespace(ns(4_000, 10_000, 3_000));
    // when a 2000m + 500m pod arrives (ratio: 6000m and 1500m; container max: 4000m)
    h.send(pod(container("app", ContainerKind.APP, 2_000, 0), container("side", ContainerKind.APP, 500, 0)));
    h.settle();
    // then the container max binds the app (4000m) and the split gives the side 1000m
    PodChange change = onlyChange();
    assertThat(limitOf(change, "app")).isEqualTo(4_000);
    assertThat(limitOf(change, "side")).isEqualTo(1_000);
  }
}
