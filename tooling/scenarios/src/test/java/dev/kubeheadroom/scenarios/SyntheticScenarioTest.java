package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.Malformed;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticScenarioTest {
  @TempDir Path dir;

  private static SyntheticScenario.Options small(long seed) {
    return SyntheticScenario.Options.defaults(20, 600).withSeed(seed);
  }

  @Test
  void generatedLogParsesThroughTheProductionReaderWithoutMalformedLines() throws IOException {
    // given
    Scenario scenario = SyntheticScenario.generate(small(7));
    Path log = dir.resolve("synthetic.jsonl");
    // when
    long lines = scenario.write(log);
    List<WatchLogItem> items;
    try (Stream<WatchLogItem> s = WatchLogReader.read(log)) {
      items = s.toList();
    }
    // then
    assertThat(items).hasSize((int) lines).hasSize(scenario.events().size());
    assertThat(items).noneMatch(i -> i instanceof Malformed);
    for (int i = 0; i < items.size(); i++) {
      WatchEvent read = (WatchEvent) items.get(i);
      ScenarioEvent written = scenario.events().get(i);
      assertThat(read.at()).isEqualTo(written.at());
      assertThat(read.type().name()).isEqualTo(written.type().name());
      assertThat(read.object()).isEqualTo(written.object());
    }
  }

  @Test
  void podsArriveUnboundThenBindThenEnd() {
    Scenario scenario = SyntheticScenario.generate(small(3));
    List<ScenarioEvent> podEvents = scenario.events().stream().filter(e -> e.object() instanceof Pod).toList();
    ScenarioEvent first = podEvents.get(0);
    Pod pod = (Pod) first.object();
    assertThat(first.type()).isEqualTo(ScenarioEvent.Type.ADDED);
    assertThat(pod.getSpec().getNodeName()).isNull();
    assertThat(pod.getStatus().getQosClass()).isEqualTo("Burstable");
    assertThat(pod.getSpec().getContainers().get(0).getResizePolicy())
        .allMatch(r -> "NotRequired".equals(r.getRestartPolicy()));
    List<ScenarioEvent> itsLife = podEvents.stream()
        .filter(e -> e.object().getMetadata().getUid().equals(pod.getMetadata().getUid())).toList();
    assertThat(itsLife.get(1).type()).isEqualTo(ScenarioEvent.Type.MODIFIED);
    assertThat(((Pod) itsLife.get(1).object()).getSpec().getNodeName()).isNotNull();
    assertThat(itsLife.get(itsLife.size() - 1).type()).isEqualTo(ScenarioEvent.Type.DELETED);
    assertThat(scenario.events()).isSortedAccordingTo((a, b) -> a.at().compareTo(b.at()));
  }

  @Test
  void sameSeedGivesTheSameLogAndAnotherSeedAnotherOne() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl");
    Path c = dir.resolve("c.jsonl");
    SyntheticScenario.generate(small(11)).write(a);
    SyntheticScenario.generate(small(11)).write(b);
    SyntheticScenario.generate(small(12)).write(c);
    assertThat(Files.readAllLines(a)).isEqualTo(Files.readAllLines(b));
    assertThat(Files.readAllLines(a)).isNotEqualTo(Files.readAllLines(c));
  }

  @Test
  void placementNeverOverbooksANodeEvenWhenPodsOutnumberTheRoom() {
    // given: arrivals five times faster than the 70% steady state, so many pods cannot fit
    SyntheticScenario.Options crowded = small(5);
    crowded = crowded.withTime(crowded.arrivalsPerSecond() * 5, crowded.timeCompression());
    // when
    Scenario scenario = SyntheticScenario.generate(crowded);
    // then
    assertThat(scenario.summary().unplacedPods()).isPositive();
    assertThat(scenario.summary().placedPods() + scenario.summary().unplacedPods()).isEqualTo(600);
    assertThat(Bookings.peakShare(scenario.events())).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
  }

  @Test
  void smallNodesWithScaledRequestsStillPlaceMostPods() {
    SyntheticScenario.Options demo = small(1).withNodeCpu(8_000, 0.1);
    Scenario scenario = SyntheticScenario.generate(demo);
    assertThat(scenario.summary().placedPods()).isGreaterThan(500);
    assertThat(Bookings.peakShare(scenario.events())).isLessThanOrEqualTo(1.0);
  }
}
