package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Audit replays topics byte for byte: epochs fence as live, and a log without them replays as before. */
class ReplayFencingTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final Topics topics = Topics.defaults();
  private final List<Long> fenced = new ArrayList<>();
  private final ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), new TopologyListener() {
    @Override
    public void fenced(String topic, String node, long epoch, long fence) {
      fenced.add(epoch);
    }
  }, T0);

  private static PodSnapshot pod(long requestMilli) {
    return new PodSnapshot("uid-1", "team-a", "web-1", "n1", "Running", "Burstable", "1", 1, null, 0, null,
        false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli, 0, false, false)),
        ResizeStatus.NONE);
  }

  private long request() {
    return engine.booking("n1").pods().get("uid-1").pod().containers().get(0).cpuRequestMilli();
  }

  @Test
  void aLogWrittenBeforeEpochsReplaysUnfenced() {
    // the exact bytes an earlier release wrote: no epoch field
    String old = new String(JsonCodec.encode(pod(500)), StandardCharsets.UTF_8);
    assertThat(old).doesNotContain("epoch");
    engine.pipeRaw(topics.pods(), "n1", old.getBytes(StandardCharsets.UTF_8), T0);
    engine.pipeRaw(topics.pods(), "n1", JsonCodec.encode(pod(700)), T0.plusSeconds(1));
    assertThat(request()).isEqualTo(700);
    assertThat(fenced).isEmpty();
  }

  @Test
  void aStampedLogFencesTheSupersededLeaderAsTheLiveTopologyDid() {
    engine.pipeRaw(topics.pods(), "n1", JsonCodec.encode(pod(500).withEpoch(1)), T0);
    engine.pipeRaw(topics.pods(), "n1", JsonCodec.encode(pod(900).withEpoch(2)), T0.plusSeconds(1));
    engine.pipeRaw(topics.pods(), "n1", JsonCodec.encode(pod(600).withEpoch(1)), T0.plusSeconds(2));
    assertThat(request()).isEqualTo(900);
    assertThat(fenced).containsExactly(1L);
  }
}
