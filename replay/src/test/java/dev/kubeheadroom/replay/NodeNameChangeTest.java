package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.schemas.ClusterConfig;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pod whose {@code spec.nodeName} changes between events (the API server forbids it; a log can
 * hold it) leaves no booking behind on its old node: through {@code simulate}'s inline topology and
 * through the live topology under {@code TopologyTestDriver} ({@link DriverHarness}).
 */
class NodeNameChangeTest {
  private static final String NS = "{\"type\":\"ADDED\",\"at\":\"2026-03-01T12:00:00Z\",\"object\":{\"apiVersion\":\"v1\","
      + "\"kind\":\"Namespace\",\"metadata\":{\"name\":\"shop\",\"uid\":\"ns\",\"labels\":{\"kube-headroom.dev/mode\":\"managed\"}}}}";

  private static String node(String name) {
    return "{\"type\":\"ADDED\",\"at\":\"2026-03-01T12:00:01Z\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"node-" + name + "\"},\"status\":{\"allocatable\":{\"cpu\":\"2\"}}}}";
  }

  private static String pod(String type, String at, String name, String node, String cpu) {
    return "{\"type\":\"" + type + "\",\"at\":\"" + at + "\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\",\"uid\":\"p-" + name + "\"},"
        + "\"spec\":{\"nodeName\":\"" + node + "\",\"containers\":[{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\""
        + cpu + "\"}}}]},\"status\":{\"phase\":\"Running\",\"qosClass\":\"Burstable\"}}}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"inline", "driver"})
  void thePodsOldNodeNoLongerBooksIt(String harness) {
    String log = String.join("\n", NS, node("n1"), node("n2"),
        pod("ADDED", "2026-03-01T12:00:05Z", "a", "n1", "1500m"),
        pod("MODIFIED", "2026-03-01T12:05:00Z", "a", "n2", "1500m"),
        pod("ADDED", "2026-03-01T12:06:00Z", "b", "n1", "100m"));

    ClusterReport report;
    try (Stream<WatchLogItem> items = WatchLogReader.stream(new BufferedReader(new StringReader(log)))) {
      report = new Simulation(ClusterConfig.DEFAULTS.withDryRun(false), Simulation.Observer.NONE,
          harness.equals("driver") ? DriverHarness.FACTORY : TopologyHarness.Factory.INLINE).run(items.iterator());
    }

    assertThat(report.summary().malformed()).isZero();
    assertThat(report.pods()).filteredOn(p -> p.name().equals("a")).singleElement()
        .extracting(ClusterReport.PodLine::node).isEqualTo("n2");
    // n1 books b alone (1900m of slack, not 400m): b may grow past what a left behind
    assertThat(report.nodes()).filteredOn(n -> n.name().equals("n1")).singleElement()
        .extracting(ClusterReport.NodeLine::slackMilli).isEqualTo(1_900L);
    assertThat(report.nodes()).filteredOn(n -> n.name().equals("n2")).singleElement()
        .extracting(ClusterReport.NodeLine::slackMilli).isEqualTo(500L);
  }
}
