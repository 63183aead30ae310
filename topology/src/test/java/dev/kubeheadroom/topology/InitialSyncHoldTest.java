package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static dev.kubeheadroom.topology.TopologyHarness.enforcing;
import static dev.kubeheadroom.topology.TopologyHarness.node16;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.SyncMark;
import dev.kubeheadroom.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node is not decided from a booking an ingest re-publish has not completed (DESIGN.md,
 * "Initial sync"). After a restart, a new ingest leader (epoch 2) re-publishes a node whose
 * booking is empty (it joined while ingest was down): its pods come between a {@code begin} and
 * an {@code end} sync mark, and the stream thread's read of them can pause for longer than the
 * debounce (busy with other partitions, or a commit), which decided the node on the pods read so
 * far and moved their limits the rest moved back.
 */
class InitialSyncHoldTest {
  private static final long EPOCH = 2;

  @TempDir Path stateDir;
  TopologyHarness h;

  @AfterEach
  void stop() {
    h.close();
  }

  private void start(TopologySettings settings) {
    h = new TopologyHarness(stateDir, TopologyHarness.T0, settings, TopologyListener.NONE);
    h.config(enforcing());
    h.namespace(managedNs("team-a"));
  }

  private void sendPods(int from, int to) {
    for (int i = from; i < to; i++) {
      h.send(pod("team-a", "web-" + i, "n1", 1000, 0).withEpoch(EPOCH));
    }
  }

  private void mark(SyncMark.Phase phase) {
    h.send(new SyncMark("n1", phase, EPOCH));
  }

  /** Waits {@code d} in ticks of 100 ms, as the live punctuator does. */
  private void pause(Duration d) {
    for (long t = 0; t < d.toMillis(); t += 100) {
      h.advance(Duration.ofMillis(100));
    }
  }

  @Test
  void aNodeFilledFromEmptyIsDecidedOnAllItsPodsNotOnThoseReadBeforeAPause() {
    start(TopologySettings.defaults(Topics.defaults()));
    h.send(node16().withEpoch(EPOCH));
    mark(SyncMark.Phase.BEGIN);
    sendPods(0, 3);

    // when the read pauses for longer than a debounce (2 s) inside the node's pods
    pause(Duration.ofSeconds(5));

    // then nothing is decided on the three pods read so far
    assertThat(h.decisions()).as("decided on part of the node's pods").isEmpty();

    // and once the rest and the end are read, the node is decided once, on all six
    sendPods(3, 6);
    mark(SyncMark.Phase.END);
    h.settle();
    List<NodeDecision> decided = h.decisions();
    assertThat(decided).hasSize(1);
    assertThat(decided.get(0).inputs()).extracting(DecisionInput::key).doesNotHaveDuplicates().hasSize(6);
    pause(Duration.ofSeconds(10)); // nothing else to decide (the targets stand, pending)
    assertThat(h.decisions()).isEmpty();
  }

  @Test
  void aHoldWhoseEndIsLostLapsesAfterTheLimit() {
    start(TopologySettings.defaults(Topics.defaults()).with(b -> b.syncHoldLimit = Duration.ofSeconds(10)));
    h.send(node16().withEpoch(EPOCH));
    mark(SyncMark.Phase.BEGIN);
    sendPods(0, 3);

    pause(Duration.ofSeconds(9));
    assertThat(h.decisions()).isEmpty();

    // the end never comes (the leader died mid-node): decided on what it has at the limit
    pause(Duration.ofMillis(1500));
    List<NodeDecision> decided = h.decisions();
    assertThat(decided).hasSize(1);
    assertThat(decided.get(0).inputs()).hasSize(3);
  }

  @Test
  void podsWithoutMarksAreDecidedAtTheirDebounceAsBefore() {
    // a log written before sync marks, or simulate's projection: nothing is held
    start(TopologySettings.defaults(Topics.defaults()));
    h.send(node16().withEpoch(EPOCH));
    sendPods(0, 3);
    h.settle();
    assertThat(h.decisions()).singleElement().satisfies(d -> assertThat(d.inputs()).hasSize(3));
  }
}
