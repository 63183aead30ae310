package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uniform ceilings for gangs (docs/design/headroom-design.txt §11.6) through the production
 * topology: each node's members' own targets repartitioned by gang, reduced per gang, and the
 * ceiling joined back to the members' nodes, which decide with it.
 */
class GangScenariosTest {
  @TempDir Path stateDir;
  TopologyHarness h;
  final Map<String, PodSnapshot> live = new HashMap<>();
  final List<NodeDecision> all = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new TopologyHarness(stateDir);
    h.config(enforcing());
    h.namespace(Fixtures.managedNs("team-a"));
    for (String n : List.of("n1", "n2", "n3")) {
      h.send(Fixtures.node(n, 16_000));
    }
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private void pod(String name, String node, long request, String gang) {
    PodSnapshot pod = Fixtures.pod("team-a", name, node, request, 0).withGang(gang);
    live.put(pod.uid(), pod);
    h.send(pod);
  }

  /**
   * Decides, applies what was decided (as the actuator's snapshots would), until quiet: two
   * debounces in a row without a decision (a node may decide nothing yet move a gang's ceiling,
   * which another node decides on one debounce later).
   */
  private void converge() {
    int quiet = 0;
    for (int round = 0; round < 12; round++) {
      h.settle();
      List<NodeDecision> ds = h.decisions();
      if (ds.isEmpty() && ++quiet == 2) {
        return;
      }
      if (!ds.isEmpty()) {
        quiet = 0;
      }
      all.addAll(ds);
      h.applyAll(ds, live);
    }
    throw new AssertionError("no quiet after 8 rounds: " + all);
  }

  private long limit(String name) {
    return live.get("uid-" + name).containers().get(0).cpuLimitMilli();
  }

  private DecisionInput lastInput(String name) {
    DecisionInput last = null;
    for (NodeDecision d : all) {
      for (DecisionInput in : d.inputs()) {
        if (in.key().equals("uid-" + name)) {
          last = in;
        }
      }
    }
    return last;
  }

  @Test
  void membersOnNodesWithDifferentSlackGetTheLowestRatio() {
    // given a gang of two 1-core workers: w1 alone on n1 (its node alone would give it 10 cores,
    // the multiplier cap), w2 on n2 beside an 11-core pod (4 cores of slack: its node gives it 2)
    pod("busy", "n2", 11_000, null);
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    // when
    converge();
    // then both run at 2 cores: the slowest worker's node sets the gang's pace; the pod outside
    // the gang keeps its own share
    assertThat(limit("w1")).isEqualTo(2_000);
    assertThat(limit("w2")).isEqualTo(2_000);
    assertThat(limit("busy")).isEqualTo(14_670);
    // and the decision records name the gang and the ceiling each member was decided with
    assertThat(lastInput("w1").gang()).isEqualTo("team-a/train");
    assertThat(lastInput("w1").gangCeiling().toPolicy()).isEqualByComparingTo(new CeilingRatio(2_000, 1_000).toPolicy());
    assertThat(lastInput("busy").gang()).isNull();
  }

  @Test
  void aMemberLeavingNoLongerCountsAndTheOthersRiseBack() {
    // given the gang of the previous scenario, converged at 2 cores
    pod("busy", "n2", 11_000, null);
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    converge();
    assertThat(limit("w1")).isEqualTo(2_000);
    // when the slow worker is deleted
    PodSnapshot w2 = live.remove("uid-w2");
    h.send(new PodRemoved(w2.uid(), w2.namespace(), w2.name(), w2.node()));
    converge();
    // then w1 is a gang of one again: what its node alone gives it
    assertThat(limit("w1")).isEqualTo(10_000);
    assertThat(lastInput("w1").gangCeiling()).isNull();
  }

  @Test
  void aNodeFillingUpLowersEveryMembersCeiling() {
    // given three 1-core workers, one per node, each alone: 10 cores each
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    pod("w3", "n3", 1_000, "train");
    converge();
    assertThat(List.of(limit("w1"), limit("w2"), limit("w3"))).containsOnly(10_000L);
    // when n3 fills up (a 15-core pod beside w3: no slack left)
    pod("filler", "n3", 15_000, null);
    converge();
    // then every member falls to the full node's ratio, 1: its request
    assertThat(List.of(limit("w1"), limit("w2"), limit("w3"))).containsOnly(1_000L);
  }

  @Test
  void aGangOfOneBehavesLikeNoGang() {
    // given the same pod shape on two nodes, one in a gang of one, one in none
    pod("alone", "n1", 1_500, "solo");
    pod("plain", "n2", 1_500, null);
    // when
    converge();
    // then the same limit, and no ceiling recorded for the gang of one
    assertThat(limit("alone")).isEqualTo(limit("plain")).isEqualTo(15_000);
    assertThat(lastInput("alone").gang()).isEqualTo("team-a/solo");
    assertThat(lastInput("alone").gangCeiling()).isNull();
  }

  @Test
  void membersWithDifferentRequestsKeepTheRatioWithinTheirOwnTargets() {
    // given a 2-core leader alone on n1 and a 500m worker on n2 beside an 13.5-core pod
    // (2 cores of slack: the worker's own node gives it 1.5 cores, a ratio of 3)
    pod("busy", "n2", 13_500, null);
    pod("leader", "n1", 2_000, "lws");
    pod("worker", "n2", 500, "lws");
    // when
    converge();
    // then the leader runs at three times its request too, well below its own 16 cores
    assertThat(limit("worker")).isEqualTo(1_500);
    assertThat(limit("leader")).isEqualTo(6_000);
  }

  @Test
  void gangsAreNamespaceScoped() {
    // given two namespaces using the same gang name, one worker each on differently loaded nodes
    h.namespace(Fixtures.managedNs("team-b"));
    pod("busy", "n2", 11_000, null);
    pod("a1", "n1", 1_000, "train");
    PodSnapshot b1 = Fixtures.pod("team-b", "b1", "n2", 1_000, 0).withGang("train");
    live.put(b1.uid(), b1);
    h.send(b1);
    // when
    converge();
    // then neither is the other's gang: a1 keeps its node's 10 cores
    assertThat(limit("a1")).isEqualTo(10_000);
    assertThat(limit("b1")).isEqualTo(2_000);
  }

  @Test
  void aRemovedNodeTakesItsMembersOutOfTheGang() {
    // given the two-worker gang at 2 cores
    pod("busy", "n2", 11_000, null);
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    converge();
    assertThat(limit("w1")).isEqualTo(2_000);
    // when n2 goes away (its pods with it)
    h.send(new dev.kubeheadroom.schemas.NodeRemoved("n2"));
    converge();
    // then w1 is alone in its gang
    assertThat(limit("w1")).isEqualTo(10_000);
  }

  @Test
  void anUnreadableOrMiskeyedGangRecordIsDeadLetteredAndTheGangGoesOn() {
    var ceilings = h.driver.createInputTopic(h.topics.gangCeilings(),
        new org.apache.kafka.common.serialization.StringSerializer(),
        new org.apache.kafka.common.serialization.StringSerializer());
    ceilings.pipeInput("n1", "{not json");
    ceilings.pipeInput("n2", "{\"gang\":\"team-a/x\",\"node\":\"n1\"}");
    assertThat(h.deadLetters()).extracting(d -> d.kind().wireName()).containsExactly("unreadable", "wrong-key");
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    converge();
    assertThat(limit("w1")).isEqualTo(10_000);
  }

  @Test
  void changesInTheRecordsNameOnlyPodsThatMoved() {
    pod("w1", "n1", 1_000, "train");
    pod("w2", "n2", 1_000, "train");
    converge();
    // a gang that agrees from the start: one change per pod
    assertThat(all.stream().flatMap(d -> d.changes().stream()).map(PodChange::name).toList())
        .containsExactlyInAnyOrder("w1", "w2");
  }
}
