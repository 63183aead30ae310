package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import dev.kubeheadroom.cli.RecordedHistory.Raw;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An answer that starts at a checkpoint shows the last decision of a pod whose node made none
 * since: read back from the decisions topic (DecisionLookback), equal to what the whole log's
 * replay derives. The history is a cluster with a working actuator: each decision is followed by
 * the pod's snapshot showing the new limit, and the decisions topic holds the decisions taken,
 * at their times (as a live topology that keeps up writes them; {@code audit --verify} checks
 * that the two agree), the checkpoints as each of the two tasks writes them.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LastDecisionLookbackTest {
  Topics topics;
  String bootstrap;
  /** A checkpoint boundary, an hour ago. */
  final Instant t0 = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.HOURS);

  @BeforeAll
  void recordAHistory(KafkaBroker kafka) throws Exception {
    bootstrap = kafka.bootstrapServers();
    topics = new Topics(TestKafka.uniqueName("lookback") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    List<NodeDecision> decisions = new ArrayList<>();
    List<Raw> log = actuated(inputs(), decisions);
    RecordedHistory.write(kafka, topics, 2, t0, log, decisions);
  }

  /**
   * n1 gets its pods in the first 12 minutes, then only re-publishes of its unchanged node (its
   * partition's stream time passes the 20-minute boundary, and nothing is decided); n2 keeps
   * changing until 35 minutes in.
   */
  private List<Raw> inputs() {
    List<Raw> in = new ArrayList<>();
    in.add(new Raw(topics.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)), t0));
    in.add(new Raw(topics.namespaces(), "team-a", JsonCodec.encode(
        new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)), t0));
    for (String node : List.of("n1", "n2")) {
      in.add(new Raw(topics.nodes(), node, JsonCodec.encode(new NodeSnapshot(node, 8000, "linux", false, Map.of())),
          t0.plusSeconds(30)));
    }
    for (int minute = 1; minute <= 35; minute += 2) {
      Instant at = t0.plus(Duration.ofMinutes(minute));
      if (minute <= 12) {
        in.add(pod("n1", "web-" + minute, 300 + 20L * minute, at));
      } else {
        in.add(new Raw(topics.nodes(), "n1", JsonCodec.encode(new NodeSnapshot("n1", 8000, "linux", false, Map.of())),
            at));
      }
      in.add(pod("n2", "api-" + minute, 200 + 10L * minute, at.plusSeconds(7)));
    }
    return in;
  }

  /** The inputs with an actuator: each decided limit shows in the pod's next snapshot, 3 s later. */
  private List<Raw> actuated(List<Raw> inputs, List<NodeDecision> decisions) {
    PriorityQueue<Raw> queue = new PriorityQueue<>(Comparator.comparing(Raw::at));
    queue.addAll(inputs);
    Map<String, PodSnapshot> pods = new java.util.HashMap<>();
    List<Raw> log = new ArrayList<>();
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, t0)) {
      while (!queue.isEmpty()) {
        Raw r = queue.poll();
        log.add(r);
        if (r.topic().equals(topics.pods())) {
          PodSnapshot p = JsonCodec.decode(r.value(), PodSnapshot.class);
          pods.put(p.uid(), p);
        }
        engine.pipeRaw(r.topic(), r.key(), r.value(), r.at());
        for (NodeDecision d : engine.drainDecisions()) {
          decisions.add(d);
          for (PodChange c : d.changes()) {
            PodSnapshot old = pods.get(c.uid());
            Map<String, Long> limits = new java.util.HashMap<>();
            c.containers().forEach(cc -> limits.put(cc.name(), cc.toMilli()));
            List<ContainerSnapshot> containers = old.containers().stream().map(k -> new ContainerSnapshot(k.name(),
                k.kind(), k.cpuRequestMilli(), limits.getOrDefault(k.name(), k.cpuLimitMilli()), false, false)).toList();
            queue.add(new Raw(topics.pods(), d.node(), JsonCodec.encode(new PodSnapshot(old.uid(), old.namespace(),
                old.name(), old.node(), "Running", "Burstable", old.resourceVersion() + "r", 1, null, 0, null, false,
                List.of(), containers, ResizeStatus.NONE)), d.at().plusSeconds(3)));
          }
        }
      }
    }
    return log;
  }

  private Raw pod(String node, String name, long requestMilli, Instant at) {
    PodSnapshot p = new PodSnapshot("uid-" + name, "team-a", name, node, "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli, 0, false, false)),
        ResizeStatus.NONE);
    return new Raw(topics.pods(), node, JsonCodec.encode(p), at);
  }

  @Test
  void aQuietNodesPodShowsTheLastDecisionFromBeforeTheCheckpoint() {
    // (explain's replay is this command with the pod as its subject: AuditCommand)
    String at = t0.plus(Duration.ofMinutes(27)).toString();
    CliRun fromCheckpoint = cli("audit", "--at", at, "--pod", "team-a/web-5");
    CliRun whole = cli("audit", "--at", at, "--pod", "team-a/web-5", "--full-replay");
    assertThat(fromCheckpoint.exitCode()).as(fromCheckpoint.stderr()).isZero();
    assertThat(whole.exitCode()).as(whole.stderr()).isZero();
    assertThat(fromCheckpoint.stderr()).contains("starting from the checkpoint at " + t0.plus(Duration.ofMinutes(20)))
        .contains("node n1: of the pods no replayed decision changed, 1 of 1 found their last decision in the"
            + " decisions topic");
    // the whole replay's last decision for the pod, from before the cut, and the same one here
    List<String> last = lines(whole.stdout(), "Last decision ");
    assertThat(last).singleElement().satisfies(l -> assertThat(Instant.parse(
        l.substring("Last decision ".length(), l.indexOf(": ", "Last decision ".length()))))
        .isBefore(t0.plus(Duration.ofMinutes(20))));
    assertThat(lines(fromCheckpoint.stdout(), "Last decision ")).isEqualTo(last);
    assertThat(fromCheckpoint.stdout()).contains("this last decision was read back from the decisions topic");
  }

  private static List<String> lines(String text, String prefix) {
    return text.lines().map(String::strip).filter(l -> l.startsWith(prefix)).toList();
  }

  private CliRun cli(String... args) {
    return CliRun.onKafka(bootstrap, topics.prefix(), args);
  }
}
