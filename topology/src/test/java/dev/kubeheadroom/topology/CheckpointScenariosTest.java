package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.topology.booking.Checkpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint punctuation under TopologyTestDriver: driven by record time (stream time), never
 * the wall clock; a checkpoint at a boundary holds exactly the records read before the first one
 * at or past it; the same log gives the same checkpoint bytes.
 */
class CheckpointScenariosTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z"); // a boundary
  private static final Duration TEN = Duration.ofMinutes(10);

  @TempDir Path dir;

  private static TestOutputTopic<String, NodeCheckpoint> checkpoints(TopologyHarness h) {
    return h.driver.createOutputTopic(h.topics.checkpoints(), new StringDeserializer(),
        HeadroomSerdes.checkpoints().deserializer());
  }

  @Test
  void theWallClockAloneNeverCheckpoints() {
    try (TopologyHarness h = new TopologyHarness(dir, T0.plusSeconds(1))) {
      var out = checkpoints(h);
      h.sendAt(Fixtures.node("n1", 16000), T0.plusSeconds(1));
      h.advance(Duration.ofHours(2)); // wall-clock punctuations run, stream time stays
      assertThat(out.readValuesToList()).isEmpty();
    }
  }

  @Test
  void crossingABoundaryCheckpointsWhatCameBeforeIt() {
    try (TopologyHarness h = new TopologyHarness(dir, T0.plusSeconds(1))) {
      var out = checkpoints(h);
      PodSnapshot web = Fixtures.pod("team-a", "web", "n1", 1000, 2000);
      PodSnapshot api = Fixtures.pod("team-a", "api", "n2", 500, 0);
      h.sendAt(Fixtures.node("n1", 16000), T0.plusSeconds(1));
      h.sendAt(web, T0.plusSeconds(2));
      h.sendAt(api, T0.plusSeconds(3)); // n2's node not seen yet: its pods are still booked
      h.sendAt(new ResizeOutcome("n1", web.uid(), "team-a", "web", OutcomeResult.QUOTA_DENIED, 3000,
          T0.plusSeconds(4), "exceeded quota"), T0.plusSeconds(4));
      assertThat(out.readKeyValuesToList()).isEmpty();

      // The first record past the boundary: the checkpoint excludes it (n1 still has web).
      h.sendAt(new PodRemoved(web.uid(), "team-a", "web", "n1"), T0.plus(TEN).plusSeconds(5));
      List<KeyValue<String, NodeCheckpoint>> written = out.readKeyValuesToList();
      assertThat(written).extracting(kv -> kv.key)
          .containsExactly("n1@" + T0.plus(TEN).toEpochMilli(), "n2@" + T0.plus(TEN).toEpochMilli());
      NodeCheckpoint n1 = written.get(0).value;
      assertThat(n1.at()).isEqualTo(T0.plus(TEN));
      assertThat(n1.snapshot()).isEqualTo(Fixtures.node("n1", 16000));
      assertThat(n1.pods()).singleElement().satisfies(p -> {
        assertThat(p.pod()).isEqualTo(web);
        assertThat(p.refusals()).isEqualTo(1);
        assertThat(p.backoffSince()).isEqualTo(T0.plusSeconds(4));
      });
      assertThat(written.get(1).value.snapshot()).isNull();
      assertThat(written.get(1).value.pods()).extracting(p -> p.pod()).containsExactly(api);

      // Within the same interval: nothing; two boundaries skipped at once: one checkpoint.
      h.sendAt(api, T0.plus(TEN).plusSeconds(30));
      assertThat(out.readValuesToList()).isEmpty();
      h.sendAt(api, T0.plus(TEN.multipliedBy(3)).plusSeconds(1));
      assertThat(out.readValuesToList()).extracting(NodeCheckpoint::at, c -> c.pods().size())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(T0.plus(TEN.multipliedBy(3)), 0),
              org.assertj.core.groups.Tuple.tuple(T0.plus(TEN.multipliedBy(3)), 1));
    }
  }

  @Test
  void aCheckpointRestoresTheBookingItWasTakenFrom() {
    try (TopologyHarness h = new TopologyHarness(dir, T0.plusSeconds(1))) {
      var out = checkpoints(h);
      h.sendAt(Fixtures.node("n1", 16000), T0.plusSeconds(1));
      h.sendAt(Fixtures.pod("team-a", "web", "n1", 1000, 2000), T0.plusSeconds(2));
      h.sendAt(Fixtures.node("n1", 16000), T0.plus(TEN));
      NodeCheckpoint c = out.readValue();
      // the booking round trip (the cut and the read order are the log's, not the booking's: carried over)
      NodeCheckpoint again = Checkpoints.of(Checkpoints.booking(c), c.at()).withCut(c.cut()).withOrder(c.order());
      assertThat(JsonCodec.encodeToString(again)).isEqualTo(JsonCodec.encodeToString(c));
    }
  }

  @Test
  void theSameLogGivesTheSameCheckpointBytes() {
    assertThat(run(dir.resolve("a"))).isEqualTo(run(dir.resolve("b"))).isNotEmpty();
  }

  /** A seeded log of 40 nodes over two hours (600 records) of event time, with wall-clock decisions between. */
  private static String run(Path stateDir) {
    java.util.Random random = new java.util.Random(7);
    try (TopologyHarness h = new TopologyHarness(stateDir, T0)) {
      var out = checkpoints(h);
      h.config(TopologyHarness.enforcing());
      h.namespace(Fixtures.managedNs("team-a"));
      Instant t = T0;
      for (int i = 0; i < 600; i++) {
        t = t.plusMillis(random.nextInt(24_000));
        String node = "n" + random.nextInt(40);
        if (random.nextInt(10) == 0) {
          h.sendAt(Fixtures.node(node, 8000 + 1000L * random.nextInt(8)), t);
        } else {
          h.sendAt(Fixtures.pod("team-a", "p" + random.nextInt(400), node, 100L * (1 + random.nextInt(9)), 0), t);
        }
        if (i % 50 == 0) {
          h.advance(Duration.ofSeconds(3)); // decisions on the wall clock: not in the checkpoints
        }
      }
      return out.readValuesToList().stream().map(JsonCodec::encodeToString).collect(Collectors.joining("\n"));
    }
  }
}
