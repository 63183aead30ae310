package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A generated log through {@code simulate}: the limits Headroom sets stay within the node. */
class SimulatedScenarioTest {
  @TempDir Path dir;

  @Test
  void managedPodsEndWithLimitsBetweenTheirRequestAndTheirNodesAllocatable() throws IOException {
    // given: 10 nodes, pods arriving three times faster than the 70% steady state
    SyntheticScenario.Options options = SyntheticScenario.Options.defaults(10, 300).withSeed(2);
    options = options.withTime(options.arrivalsPerSecond() * 3, options.timeCompression());
    Path log = dir.resolve("scenario.jsonl");
    Scenario whole = SyntheticScenario.generate(options);
    Instant middle = whole.events().get(whole.events().size() / 2).at();
    whole.before(middle).write(log); // a watch captured up to then: pods are still running
    // when
    ClusterReport report;
    try (Stream<WatchLogItem> items = WatchLogReader.read(log)) {
      report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE).run(items.iterator());
    }
    // then
    Map<String, Long> allocatable = report.nodes().stream()
        .collect(Collectors.toMap(ClusterReport.NodeLine::name, ClusterReport.NodeLine::allocatableMilli));
    List<ClusterReport.PodLine> managed = report.pods().stream().filter(ClusterReport.PodLine::managed).toList();
    assertThat(report.summary().malformed()).isZero();
    assertThat(report.summary().patches()).isPositive();
    assertThat(managed).isNotEmpty();
    for (ClusterReport.PodLine pod : managed) {
      assertThat(pod.namespace()).isEqualTo(ScenarioAssembler.MANAGED_NAMESPACE);
      for (ClusterReport.ContainerLine c : pod.containers()) {
        assertThat(c.limitMilli()).as("%s/%s", pod.name(), c.name())
            .isGreaterThanOrEqualTo(c.requestMilli())
            .isLessThanOrEqualTo(allocatable.get(pod.node()));
      }
    }
    assertThat(report.pods().stream().filter(p -> !p.managed()).map(ClusterReport.PodLine::namespace)
        .collect(Collectors.toSet())).containsOnly(ScenarioAssembler.UNMANAGED_NAMESPACE);
    assertThat(report.pods().stream().filter(p -> !p.managed()).flatMap(p -> p.containers().stream()))
        .allMatch(c -> c.limitMilli() == 0);
    assertThat(report.pods().stream().map(ClusterReport.PodLine::name)
        .collect(Collectors.toMap(Function.identity(), n -> 1, Integer::sum)).values()).allMatch(n -> n == 1);
  }
}
