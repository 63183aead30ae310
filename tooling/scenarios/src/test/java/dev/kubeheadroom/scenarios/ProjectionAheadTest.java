package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} projects each pod and node line by itself on its reading thread (the plain pod
 * snapshot, the node snapshot, or the projection's failure) and hands that to the projector; live
 * ingest projects on the projector's caller. The yardstick is the latter ({@code
 * Simulation.run(items, false)}): on every line of the trace, of generated churn with VPAs
 * that come and go, of the shipped examples and of lines whose projection fails, both must take
 * the same decisions, byte for byte and in order, warn the same, and end with the same report.
 */
class ProjectionAheadTest {
  @TempDir Path dir;

  @Test
  void theTraceGivesTheSameRunProjectedAheadAndInOrder() {
    assumeTrue(TraceScenario.available(TraceScenarioTest.TRACE), "openb trace not found");
    Run ahead = assertSameRun(TraceLog30.lines());
    assertThat(ahead.decisions).hasSizeGreaterThan(500);
  }

  @Test
  void generatedChurnWithVpasGivesTheSameRunProjectedAheadAndInOrder() throws IOException {
    SyntheticScenario.Options options = SyntheticScenario.Options.defaults(12, 400).withSeed(11);
    options = options.withTime(options.arrivalsPerSecond() * 3, options.timeCompression());
    Path log = dir.resolve("synthetic.jsonl");
    SyntheticScenario.generate(options).write(log);
    List<String> lines = withVpas(Files.readAllLines(log));

    Run ahead = assertSameRun(lines);
    assertThat(ahead.decisions).hasSizeGreaterThan(100);
  }

  @Test
  void theExamplesAndLinesThatDoNotProjectGiveTheSameRun() throws IOException {
    for (String example : List.of("two-nodes.jsonl", "reserved-headroom.jsonl", "gangs.jsonl")) {
      assertSameRun(Files.readAllLines(Path.of("..", "..", "docs", "examples", example)));
    }
    List<String> lines = new ArrayList<>(Files.readAllLines(Path.of("..", "..", "docs", "examples", "two-nodes.jsonl")));
    String web = lines.get(4); // web-1 on node-a, owned by ReplicaSet web-6d4f
    lines.add(5, vpa("ADDED", "web", "ReplicaSet", "web-6d4f", ""));
    lines.add(pod(web, "web-3", "p-web-3", "\"cpu\":\"bogus\""));
    lines.add(pod(web, "web-4", "", "\"cpu\":\"1\""));
    lines.add(pod(web, "web-5", "p-web-5", "\"cpu\":\"1\"").replace("\"nodeName\":\"node-a\"", "\"nodeName\":\"\""));
    lines.add("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-c\"},"
        + "\"status\":{\"allocatable\":{\"cpu\":\"x\"}}}}");
    lines.add(vpa("MODIFIED", "web", "ReplicaSet", "web-6d4f", ",\"updatePolicy\":{\"updateMode\":\"Off\"}"));
    lines.add(vpa("ADDED", "web", "ReplicaSet", "web-6d4f", ""));
    lines.add(pod(web, "web-6", "p-web-6", "\"cpu\":\"2\""));

    Run ahead = assertSameRun(lines);
    assertThat(ahead.warnings).as("the failed projections: cpu, uid, node").hasSize(3);
    assertThat(ahead.report.pods()).filteredOn(p -> p.name().startsWith("web-"))
        .as("pods the VPA controls").isNotEmpty().noneMatch(ClusterReport.PodLine::managed);
  }

  private record Run(List<String> decisions, List<String> warnings, ClusterReport report) {}

  /** Replays the lines projected ahead and in order, asserts the same run, returns it. */
  private static Run assertSameRun(List<String> lines) {
    Run ahead = run(lines, true);
    Run inOrder = run(lines, false);
    assertThat(ahead.decisions).hasSameSizeAs(inOrder.decisions);
    for (int i = 0; i < ahead.decisions.size(); i++) {
      assertThat(ahead.decisions.get(i)).as("decision %d", i).isEqualTo(inOrder.decisions.get(i));
    }
    assertThat(ahead.warnings).isEqualTo(inOrder.warnings);
    assertThat(ahead.report).isEqualTo(inOrder.report);
    return ahead;
  }

  private static Run run(List<String> lines, boolean projectAhead) {
    List<String> decisions = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    Simulation.Observer observer = new Simulation.Observer() {
      @Override
      public void decided(NodeDecision decision) {
        decisions.add(new String(JsonCodec.encode(decision), StandardCharsets.UTF_8));
      }

      @Override
      public void warning(String message) {
        warnings.add(message);
      }
    };
    byte[] log = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    WatchLogReader items = WatchLogReader.forProjection(new ByteArrayInputStream(log));
    ClusterReport report = new Simulation(ClusterConfig.DEFAULTS, observer).run(items, projectAhead);
    return new Run(decisions, warnings, report);
  }

  private static final Pattern OWNER = Pattern.compile(
      "\"namespace\":\"(team-managed)\".*?\"ownerReferences\":\\[\\{[^}]*?\"kind\":\"([^\"]+)\"[^}]*?\"name\":\"([^\"]+)\"");

  /** The log with VPAs over some of its managed pods' owners: added a third in, removed at two thirds. */
  private static List<String> withVpas(List<String> lines) {
    Set<String> owners = new LinkedHashSet<>();
    for (String line : lines.subList(0, lines.size() / 3)) {
      Matcher m = OWNER.matcher(line);
      if (m.find() && owners.size() < 6) {
        owners.add(m.group(2) + "/" + m.group(3));
      }
    }
    assertThat(owners).as("owners to target").hasSizeGreaterThan(2);
    List<String> out = new ArrayList<>(lines);
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    int n = 0;
    for (String owner : owners) {
      String[] kn = owner.split("/");
      String mode = n % 3 == 2 ? ",\"updatePolicy\":{\"updateMode\":\"Off\"}" : "";
      added.add(vpa("ADDED", "vpa-" + n, kn[0], kn[1], mode).replace("\"namespace\":\"shop\"", "\"namespace\":\"team-managed\""));
      if (n % 2 == 0) {
        removed.add(vpa("DELETED", "vpa-" + n, kn[0], kn[1], mode).replace("\"namespace\":\"shop\"", "\"namespace\":\"team-managed\""));
      }
      n++;
    }
    out.addAll(2 * lines.size() / 3, removed);
    out.addAll(lines.size() / 3, added);
    return out;
  }

  /** A VPA line in namespace shop, without {@code at} (the previous line's). */
  private static String vpa(String type, String name, String kind, String target, String spec) {
    return "{\"type\":\"" + type + "\",\"object\":{\"apiVersion\":\"autoscaling.k8s.io/v1\",\"kind\":\"VerticalPodAutoscaler\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\"},\"spec\":{\"targetRef\":{\"apiVersion\":\"apps/v1\","
        + "\"kind\":\"" + kind + "\",\"name\":\"" + target + "\"}" + spec + "}}}";
  }

  /** {@code web}'s line as another pod: a new name and uid, its cpu request replaced. */
  private static String pod(String web, String name, String uid, String cpu) {
    return web.replace("\"web-1\"", "\"" + name + "\"").replace("\"p-web-1\"", "\"" + uid + "\"")
        .replace("\"cpu\":\"1\"", cpu);
  }
}
