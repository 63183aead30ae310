package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each stage, and the broker, stopped and started again in the middle of a phase of a fixed
 * scenario: no decision is lost, and the final limits equal those of the undisturbed run.
 *
 * <p>The scenario (one managed namespace, two 16-core nodes, docs/design/policy.md arithmetic, default config):
 * <ol>
 *   <li>A: a1, a2 (1 core each) on n1 → 8 cores each; a3 (1 core) on n2 → 10 cores (the 10× cap).
 *   <li>B: b1, b2 (2 cores each) on n1 → a1, a2 2670m, b1, b2 5330m; b3 (3 cores) on n2 → a3 4
 *       cores, b3 12. The disruption comes after b1 and before b2, b3.
 *   <li>C: b1 deleted → a1, a2 4 cores, b2 8.
 * </ol>
 * Every phase waits for its limits before the next, so each phase is decided by its own flush
 * (rather than a fixed pause longer than the 10 s max debounce delay, which would triple the run
 * time for the same separation). Any state a disruption can expose half-way (n1 with a1, a2, b1 only:
 * 4 and 8 cores) differs from the phase's end by more than the deadband (10% grow, 5% shrink), so
 * a lost or stale decision would show in the final limits instead of hiding inside the deadband.
 */
class StageRestartTest {
  private static final Logger LOG = LoggerFactory.getLogger(StageRestartTest.class);
  private static final String NS = "team-f";
  private static final Map<String, Long> PHASE_A = Map.of(NS + "/a1", 8_000L, NS + "/a2", 8_000L, NS + "/a3", 10_000L);
  private static final Map<String, Long> PHASE_B = Map.of(NS + "/a1", 2_670L, NS + "/a2", 2_670L,
      NS + "/b1", 5_330L, NS + "/b2", 5_330L, NS + "/a3", 4_000L, NS + "/b3", 12_000L);
  private static final Map<String, Long> PHASE_C = Map.of(NS + "/a1", 4_000L, NS + "/a2", 4_000L,
      NS + "/b2", 8_000L, NS + "/a3", 4_000L, NS + "/b3", 12_000L);

  /** The final limits of the undisturbed run. */
  private static Map<String, Long> undisturbed;

  @BeforeAll
  static void runTheScenarioUndisturbed(@TempDir Path dir) {
    try (LivePipeline p = LivePipeline.start(dir)) {
      undisturbed = play(p, StageRestartTest::restOfPhaseB);
    }
    LOG.info("undisturbed run: {}", undisturbed);
    assertThat(undisturbed).isEqualTo(PHASE_C);
  }

  // On demand (-Pscale): in verify, ScaleOutFailoverTest's small run kills a topology instance and
  // the survivor restores its partitions from the changelogs; topology's RealBrokerTopologyTest
  // restarts one on its state directory.
  @Tag("slow")
  @Test
  void restartingTheTopologyMidPhaseLosesNoDecision(@TempDir Path dir) {
    assertFinalLimitsEqualTheUndisturbedRun(dir, p -> {
      p.stopTopology();
      double published = p.ingestPublished();
      restOfPhaseB(p);
      // ingest publishes b2 and b3 while no topology reads them
      await("b2, b3 published").atMost(LivePipeline.CONVERGE).until(() -> p.ingestPublished() >= published + 2);
      p.startTopology(); // same application id and state dir: restores from the changelog
    });
  }

  // On demand (-Pscale) to keep verify within CI's 20 minutes: ingest's own NodeSyncAndLeadershipTest covers a new leader's re-publish.
  @Tag("slow")
  @Test
  void restartingIngestMidPhaseLosesNoDecision(@TempDir Path dir) {
    assertFinalLimitsEqualTheUndisturbedRun(dir, p -> {
      p.stopIngest();
      restOfPhaseB(p); // created while no ingest watches: the new leader's re-publish carries them
      p.startIngest();
    });
  }

  // On demand (-Pscale) to keep verify within CI's 20 minutes: actuator's own ActuatorTest#aRestartMidStreamLosesNoDecisionAndPatchesNoPodTwice covers it.
  @Tag("slow")
  @Test
  void restartingTheActuatorMidPhaseLosesNoDecision(@TempDir Path dir) {
    assertFinalLimitsEqualTheUndisturbedRun(dir, p -> {
      p.stopActuator();
      long before = p.decisions();
      restOfPhaseB(p);
      // the topology decides phase B while no actuator runs: the decisions wait in Kafka
      await("a decision while the actuator is down").atMost(LivePipeline.CONVERGE)
          .until(() -> p.decisions() > before);
      p.startActuator(); // same group id: resumes from the committed offsets
    });
  }

  // On demand (-Pscale): in verify, ScaleOutFailoverTest's small run loses one broker of three
  // mid-stream; a whole-Kafka outage is ingest's KafkaOutageTest and topology's KafkaOutageTopologyTest.
  @Tag("slow")
  @Test
  void restartingTheBrokerMidPhaseLosesNoDecision(@TempDir Path dir) {
    assertFinalLimitsEqualTheUndisturbedRun(dir, p -> {
      p.stopBroker();
      double published = p.ingestPublished();
      restOfPhaseB(p);
      // ingest hands b2 and b3 to its sink while no broker answers: they wait in its buffer
      await("b2, b3 buffered").atMost(LivePipeline.CONVERGE).until(() -> p.ingestPublished() >= published + 2);
      p.startBroker(); // same data dir and port: the stages reconnect to the same cluster
    });
  }

  private static void assertFinalLimitsEqualTheUndisturbedRun(Path dir, Consumer<LivePipeline> disruption) {
    try (LivePipeline p = LivePipeline.start(dir)) {
      // given/when: the scenario, with the disruption after b1 and before the rest of phase B
      Map<String, Long> disturbed = play(p, disruption);

      // then no decision was lost: the same final limits as the undisturbed run ...
      assertThat(disturbed).isEqualTo(undisturbed);
      // ... and no limit is below its request
      Map<String, Long> requests = p.cpuRequests();
      assertThat(p.cpuLimits()).allSatisfy((pod, limit) -> assertThat(limit).isGreaterThanOrEqualTo(requests.get(pod)));
    }
  }

  /** Plays phases A, B ({@code restOfPhaseB} after b1: creates b2, b3) and C; returns the final limits. */
  private static Map<String, Long> play(LivePipeline p, Consumer<LivePipeline> disruption) {
    p.managedNamespace(NS);
    p.node("n1", "16");
    p.node("n2", "16");

    p.pod(NS, "a1", "n1", "1");
    p.pod(NS, "a2", "n1", "1");
    p.pod(NS, "a3", "n2", "1");
    p.awaitLimits(PHASE_A);

    p.pod(NS, "b1", "n1", "2");
    disruption.accept(p); // creates b2 and b3, disturbing the pipeline around them or not
    p.awaitLimits(PHASE_B);

    p.deletePod(NS, "b1");
    p.awaitLimits(PHASE_C);
    // and they stay there: no late or replayed decision moves them for longer than a debounce
    await("limits stay put").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
        .until(() -> p.cpuLimits().equals(PHASE_C));
    return p.cpuLimits();
  }

  private static void restOfPhaseB(LivePipeline p) {
    p.pod(NS, "b2", "n1", "2");
    p.pod(NS, "b3", "n2", "3");
  }
}
