package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.ResizeOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A booked pod the API server no longer has, whose removal never reaches the topology (the fault
 * suite's "kill -9 topology" row: a booking restored from a changelog that had missed the pod's
 * tombstone). The actuator answers its decision {@code gone}; the pod must leave the booking
 * then, or it is decided again at every debounce, answered gone each time, and its requests keep
 * slack from the node's real pods, whose grows never come.
 */
class GonePodScenariosTest {
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

  @Test
  void aPodAnsweredGoneLeavesTheBookingAndItsSlackGoesToTheNodesOtherPods() {
    // given a ghost (6 cores requested, its removal lost) beside web-1 (2 cores, limit 4): slack 8
    // cores, the ghost's share 6 + 8 × 6/8 = 12, web-1's 2 + 8 × 2/8 = 4, the limit it has
    h.send(pod("team-a", "ghost", "n1", 6000, 6000));
    h.send(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    assertThat(h.decisions()).singleElement()
        .satisfies(d -> assertThat(targets(d)).containsExactly(Map.entry("ghost", 12_000L)));
    // when the actuator finds no pod of the ghost's uid
    h.send(new ResizeOutcome("n1", "uid-ghost", "team-a", "ghost", OutcomeResult.GONE, 12_000, h.now,
        "pod not found"));
    h.settle();
    // then web-1 gets the whole slack (2 + 14 = 16 cores), and the ghost is never decided again
    List<NodeDecision> after = h.decisions();
    assertThat(after).singleElement()
        .satisfies(d -> assertThat(targets(d)).containsExactly(Map.entry("web-1", 16_000L)));
    for (int i = 0; i < 5; i++) {
      h.settle();
    }
    assertThat(h.decisions()).as("decisions after the gone answer settled").isEmpty();
  }

  @Test
  void aGoneAnswerForAnOldUidLeavesThePodThatReplacedItBooked() {
    // given web-1 decided, then replaced under its name by a new uid (a StatefulSet pod re-created)
    h.send(pod("team-a", "web-1", "n1", 2000, 4000));
    h.settle();
    assertThat(h.decisions()).hasSize(1);
    h.send(new dev.kubeheadroom.schemas.PodRemoved("uid-web-1", "team-a", "web-1", "n1", 0));
    h.send(pod("team-a", "web-1b", "n1", 2000, 4000));
    h.settle();
    assertThat(h.decisions()).hasSize(1);
    // when the old uid's decision is answered gone (the actuator met the new uid under the name)
    h.send(new ResizeOutcome("n1", "uid-web-1", "team-a", "web-1", OutcomeResult.GONE, 16_000, h.now,
        "pod was replaced"));
    h.settle();
    // then nothing changes for the pod that is there
    assertThat(h.decisions()).isEmpty();
  }

  private static Map<String, Long> targets(NodeDecision d) {
    return d.changes().stream().collect(Collectors.toMap(PodChange::name, PodChange::targetMilli));
  }
}
