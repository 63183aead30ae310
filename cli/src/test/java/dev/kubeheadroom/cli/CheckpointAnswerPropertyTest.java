package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import dev.kubeheadroom.cli.RecordedHistory.Raw;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.LongRange;
import org.apache.kafka.clients.admin.Admin;

/**
 * An answer started from a checkpoint is the whole log's replay's answer, field for field, at any
 * moment: over a recorded history on a real broker (pods coming, changing and going on four
 * nodes over two partitions, an actuator that applies most decisions and refuses some, with
 * outcomes, the decisions topic holding the decisions taken, the checkpoints as each task writes
 * them), for a random moment {@code audit --at} explains every pod on every node both ways:
 * replayed from the last checkpoint with each pod's last decision and outcome read back from
 * before it (AuditReplay.complete), and replayed from the log's beginning.
 */
class CheckpointAnswerPropertyTest {
  private static final int PARTITIONS = 2;
  /** A checkpoint boundary, three hours ago. */
  private static final Instant T0 = Instant.now().minus(Duration.ofHours(3)).truncatedTo(ChronoUnit.HOURS);
  private static final Duration SPAN = Duration.ofMinutes(100);
  private static final List<String> NODES = List.of("n1", "n2", "n3", "n4");

  /** An event made when it is due, from the cluster as it is then (a snapshot carries the current limits). */
  private record Due(Instant at, long seq, Supplier<Raw> make) {}

  /** The histories, each recorded once per JVM: without re-creations, and with them. */
  private static final class Recorded {
    static final Recorded HISTORY = new Recorded(false);
    /** As {@link #HISTORY}, some pods also deleted and created again under their names. */
    static final Recorded RECREATING = new Recorded(true);
    final KafkaBroker kafka = TestKafka.shared();
    final Topics topics = new Topics(TestKafka.uniqueName("answers") + ".");

    private Recorded(boolean recreating) {
      try (Admin admin = kafka.admin()) {
        TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(PARTITIONS), Duration.ofSeconds(30));
      }
      List<NodeDecision> decisions = new ArrayList<>();
      Cluster cluster = new Cluster(topics, recreating);
      List<Raw> log = cluster.run(decisions);
      names = List.copyOf(cluster.named);
      recreated = List.copyOf(cluster.recreated);
      RecordedHistory.write(kafka, topics, PARTITIONS, T0, log, decisions);
    }

    /** Every pod name the history used. */
    final List<String> names;
    /** Each re-creation of a pod under its name (on another node or the same), and when. */
    final List<Map.Entry<String, Instant>> recreated;
  }

  /** A cluster with an actuator, run through the topology: the log it leaves and the decisions taken. */
  private static final class Cluster {
    final Topics topics;
    final Random random = new Random(11);
    final PriorityQueue<Due> queue = new PriorityQueue<>(Comparator.comparing(Due::at).thenComparingLong(Due::seq));
    final Map<String, PodSnapshot> pods = new HashMap<>();
    long seq;
    int names;
    final List<String> named = new ArrayList<>();
    final List<Map.Entry<String, Instant>> recreated = new ArrayList<>();

    /** Whether some pods are deleted and created again under their names. */
    final boolean recreating;

    Cluster(Topics topics, boolean recreating) {
      this.topics = topics;
      this.recreating = recreating;
    }

    void at(Instant at, Supplier<Raw> make) {
      queue.add(new Due(at, seq++, make));
    }

    List<Raw> run(List<NodeDecision> decisions) {
      at(T0, () -> new Raw(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)), T0));
      at(T0, () -> new Raw(topics.namespaces(), "team-a", JsonCodec.encode(
          new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)), T0));
      for (String node : NODES) {
        Instant at = T0.plusSeconds(30);
        at(at, () -> node(node, 8000, at));
      }
      for (Instant at = T0.plusSeconds(40); at.isBefore(T0.plus(SPAN)); at = at.plusSeconds(20 + random.nextInt(100))) {
        Instant when = at;
        int kind = random.nextInt(recreating ? 11 : 10);
        String node = NODES.get(random.nextInt(NODES.size()));
        if (kind < 5) {
          String name = "web-" + names++;
          named.add(name);
          long request = 100 + 50L * random.nextInt(16);
          at(when, () -> created("uid-" + name, name, node, request, when));
        } else if (kind == 10) {
          String to = NODES.get(random.nextInt(NODES.size()));
          long request = 100 + 50L * random.nextInt(16);
          at(when, () -> recreated(node, to, request, when));
        } else if (kind < 8) {
          long request = 100 + 50L * random.nextInt(16);
          at(when, () -> changed(node, request, when));
        } else if (kind < 9) {
          at(when, () -> removed(node, when));
        } else {
          long allocatable = 6000 + 1000L * random.nextInt(4);
          at(when, () -> node(node, allocatable, when));
        }
      }
      List<Raw> log = new ArrayList<>();
      try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, T0)) {
        while (!queue.isEmpty()) {
          Raw r = queue.poll().make().get();
          if (r == null) {
            continue;
          }
          log.add(r);
          engine.pipeRaw(r.topic(), r.key(), r.value(), r.at());
          for (NodeDecision d : engine.drainDecisions()) {
            decisions.add(d);
            d.changes().forEach(c -> actuate(d, c));
          }
        }
      }
      return log;
    }

    /** Most changes applied (an outcome, then the pod's snapshot with the limit), some refused. */
    void actuate(NodeDecision d, PodChange c) {
      boolean refused = random.nextInt(5) == 0;
      Instant outcome = d.at().plusSeconds(2);
      at(outcome, () -> {
        PodSnapshot p = pods.get(c.uid());
        return p == null ? null : new Raw(topics.outcomes(), d.node(), JsonCodec.encode(new ResizeOutcome(d.node(),
            c.uid(), p.namespace(), p.name(), refused ? OutcomeResult.CONFLICT : OutcomeResult.APPLIED,
            c.targetMilli(), outcome, refused ? "the pod changed" : "")), outcome);
      });
      if (!refused) {
        Instant shown = d.at().plusSeconds(3);
        at(shown, () -> {
          PodSnapshot p = pods.get(c.uid());
          if (p == null) {
            return null;
          }
          Map<String, Long> limits = new HashMap<>();
          c.containers().forEach(cc -> limits.put(cc.name(), cc.toMilli()));
          return pod(with(p, p.containers().stream().map(k -> new ContainerSnapshot(k.name(), k.kind(),
              k.cpuRequestMilli(), limits.getOrDefault(k.name(), k.cpuLimitMilli()), false, false)).toList()), shown);
        });
      }
    }

    Raw node(String node, long allocatable, Instant at) {
      return new Raw(topics.nodes(), node, JsonCodec.encode(new NodeSnapshot(node, allocatable, "linux", false,
          Map.of())), at);
    }

    Raw pod(PodSnapshot p, Instant at) {
      pods.put(p.uid(), p);
      return new Raw(topics.pods(), p.node(), JsonCodec.encode(p), at);
    }

    Raw created(String uid, String name, String node, long request, Instant at) {
      return pod(new PodSnapshot(uid, "team-a", name, node, "Running", "Burstable", "1", 1,
          null, 0, null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, request, 0,
          false, false)), ResizeStatus.NONE), at);
    }

    /**
     * A pod of {@code node} deleted, and created again under its name (a new uid) on {@code to}
     * (perhaps the same node) ten seconds later, as a StatefulSet's pod is; nothing when the node
     * has none.
     */
    Raw recreated(String node, String to, long request, Instant at) {
      Raw removed = removed(node, at);
      if (removed != null) {
        String name = JsonCodec.decode(removed.value(), PodRemoved.class).name();
        Instant again = at.plusSeconds(10);
        recreated.add(Map.entry(name, again));
        String uid = "uid-" + name + "." + recreated.size();
        at(again, () -> created(uid, name, to, request, again));
      }
      return removed;
    }

    /** A pod of {@code node} with a new request (its limit kept), or nothing when it has none. */
    Raw changed(String node, long request, Instant at) {
      return onNode(node).map(p -> pod(with(p, p.containers().stream().map(k -> new ContainerSnapshot(k.name(),
          k.kind(), request, k.cpuLimitMilli(), false, false)).toList()), at)).orElse(null);
    }

    Raw removed(String node, Instant at) {
      return onNode(node).map(p -> {
        pods.remove(p.uid());
        return new Raw(topics.pods(), node, JsonCodec.encode(new PodRemoved(p.uid(), p.namespace(), p.name(), node)),
            at);
      }).orElse(null);
    }

    Optional<PodSnapshot> onNode(String node) {
      List<PodSnapshot> on = pods.values().stream().filter(p -> p.node().equals(node))
          .sorted(Comparator.comparing(PodSnapshot::uid)).toList();
      return on.isEmpty() ? Optional.empty() : Optional.of(on.get(random.nextInt(on.size())));
    }

    static PodSnapshot with(PodSnapshot p, List<ContainerSnapshot> containers) {
      return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), "Running", "Burstable",
          p.resourceVersion() + "r", p.generation() + 1, null, 0, null, false, List.of(), containers,
          ResizeStatus.NONE);
    }
  }

  @Property(tries = 12, shrinking = ShrinkingMode.OFF)
  void aCheckpointStartedAnswerIsTheWholeReplaysAnswer(
      @ForAll @LongRange(min = 900, max = 6000) long secondsIn) {
    Recorded h = Recorded.HISTORY;
    Instant at = T0.plusSeconds(secondsIn);
    try (KafkaConnection kafka = new KafkaConnection(h.kafka.bootstrapServers(), Map.of(), null)) {
      Map<String, Explanation> fromCheckpoint = answers(kafka, h.topics, at, true);
      Map<String, Explanation> whole = answers(kafka, h.topics, at, false);
      assertThat(fromCheckpoint).isNotEmpty();
      assertThat(fromCheckpoint.keySet()).isEqualTo(whole.keySet());
      whole.forEach((pod, e) -> assertThat(fromCheckpoint.get(pod)).as("%s at %s", pod, at)
          .usingRecursiveComparison().isEqualTo(e));
    }
  }

  /**
   * Late in the history, some pods' last decision and outcome are older than the checkpoint: read
   * back, and still the whole replay's.
   */
  @Example
  void answersLateInTheHistoryReadBackFromBeforeTheCheckpoint() {
    Recorded h = Recorded.HISTORY;
    Instant at = T0.plus(SPAN);
    try (KafkaConnection kafka = new KafkaConnection(h.kafka.bootstrapServers(), Map.of(), null)) {
      Map<String, Explanation> whole = answers(kafka, h.topics, at, false);
      PrintWriter err = new PrintWriter(new StringWriter());
      try (Audit audit = AuditReplay.replay(kafka, h.topics, at, true, err, Progress.of(err, "audit", false))) {
        int recalled = 0;
        for (String node : audit.nodes()) {
          AuditReplay.complete(kafka, h.topics, audit, node, audit.booking(node).pods().keySet(), err);
          for (String uid : audit.booking(node).pods().keySet()) {
            assertThat(audit.explain(node, uid)).usingRecursiveComparison().isEqualTo(whole.get(uid));
            recalled += audit.recalled(uid) ? 1 : 0;
          }
        }
        assertThat(recalled).isPositive();
      }
    }
  }

  /**
   * {@code audit --at --node}: each node replayed alone from its own checkpoint (its records
   * only) answers for its pods as the whole log's replay does.
   */
  @Property(tries = 8, shrinking = ShrinkingMode.OFF)
  void aNodeReplayedAloneAnswersAsTheWholeReplay(@ForAll @LongRange(min = 900, max = 6000) long secondsIn) {
    Recorded h = Recorded.HISTORY;
    Instant at = T0.plusSeconds(secondsIn);
    try (KafkaConnection kafka = new KafkaConnection(h.kafka.bootstrapServers(), Map.of(), null)) {
      Map<String, Map<String, Explanation>> whole = byNode(kafka, h.topics, at, false);
      int pods = 0;
      for (String node : NODES) {
        PrintWriter err = new PrintWriter(new StringWriter());
        try (Audit audit = AuditReplay.replayNode(kafka, h.topics, at, node, err, Progress.of(err, "audit", false))
            .orElseThrow()) {
          assertThat(audit.nodes()).isSubsetOf(node);
          Map<String, Explanation> alone = explained(kafka, h.topics, audit, node, err);
          assertThat(alone.keySet()).as("%s at %s", node, at).isEqualTo(whole.getOrDefault(node, Map.of()).keySet());
          alone.forEach((uid, e) -> assertThat(e).as("%s on %s at %s", uid, node, at)
              .usingRecursiveComparison().isEqualTo(whole.get(node).get(uid)));
          pods += alone.size();
        }
      }
      assertThat(pods).isPositive();
    }
  }

  /**
   * {@code audit --at --pod} and {@code explain}: the replay of only the nodes the pod can be on
   * (AuditReplay.replayPod) answers as the whole log's replay does, for every pod re-created
   * under its name (moved to another node or not) and a few others, among them some deleted by
   * then: the same explanation, or the same absence.
   */
  @Property(tries = 8, shrinking = ShrinkingMode.OFF)
  void aPodReplayedWithItsNodesAnswersAsTheWholeReplay(@ForAll @LongRange(min = 900, max = 6000) long secondsIn) {
    podAnswersMatch(T0.plusSeconds(secondsIn), new Random(secondsIn));
  }

  /**
   * Over moments ten minutes apart, the pod path meets pods re-created after the checkpoint it
   * starts from: found on their new node through the pods records past the cut.
   */
  @Example
  void aPodReCreatedAfterTheCheckpointIsFoundOnItsNewNode() {
    int after = 0;
    for (Instant at = T0.plus(Duration.ofMinutes(16)); at.isBefore(T0.plus(SPAN)); at = at.plus(Duration.ofMinutes(10))) {
      after += podAnswersMatch(at, new Random(at.getEpochSecond()));
    }
    assertThat(after).isPositive();
  }

  /** Checks the pod path at {@code at}; returns how many of the pods checked were re-created past its cut. */
  private static int podAnswersMatch(Instant at, Random random) {
    Recorded h = Recorded.RECREATING;
    List<String> asked = new ArrayList<>(h.recreated.stream().map(Map.Entry::getKey).distinct().toList());
    for (int i = 0; i < 5; i++) {
      asked.add(h.names.get(random.nextInt(h.names.size())));
    }
    int after = 0;
    PrintWriter err = new PrintWriter(new StringWriter());
    try (KafkaConnection kafka = new KafkaConnection(h.kafka.bootstrapServers(), Map.of(), null);
         Audit whole = AuditReplay.replay(kafka, h.topics, at, false, err, Progress.of(err, "audit", false))) {
      for (String name : asked) {
        Optional<Explanation> expected = podExplained(kafka, h.topics, whole, name, err);
        try (Audit alone = AuditReplay.replayPod(kafka, h.topics, at, "team-a", name, err,
            Progress.of(err, "audit", false)).orElseThrow()) {
          Instant cut = alone.resumedFrom().orElseThrow();
          if (h.recreated.stream().noneMatch(r -> r.getKey().equals(name))) {
            assertThat(alone.nodes().size()).as("nodes replayed for %s at %s", name, at).isLessThanOrEqualTo(1);
          }
          Optional<Explanation> answer = podExplained(kafka, h.topics, alone, name, err);
          assertThat(answer.isPresent()).as("%s at %s", name, at).isEqualTo(expected.isPresent());
          answer.ifPresent(e -> assertThat(e).as("%s at %s", name, at).usingRecursiveComparison()
              .isEqualTo(expected.get()));
          after += h.recreated.stream().anyMatch(r -> r.getKey().equals(name) && r.getValue().isAfter(cut)
              && !r.getValue().isAfter(at)) && answer.isPresent() ? 1 : 0;
        }
      }
    }
    return after;
  }

  /** Pod team-a/{@code name} explained as of the replayed moment, its last decision and outcome completed. */
  private static Optional<Explanation> podExplained(KafkaConnection kafka, Topics topics, Audit audit, String name,
      PrintWriter err) {
    return audit.locate("team-a", name).map(where -> {
      AuditReplay.complete(kafka, topics, audit, where.getKey(), Set.of(where.getValue()), err);
      return audit.explain(where.getKey(), where.getValue());
    });
  }

  /** Every pod on every node at {@code at}, explained. */
  private static Map<String, Explanation> answers(KafkaConnection kafka, Topics topics, Instant at, boolean fromCheckpoint) {
    Map<String, Explanation> out = new HashMap<>();
    byNode(kafka, topics, at, fromCheckpoint).values().forEach(out::putAll);
    return out;
  }

  /** As {@link #answers}, per node. */
  private static Map<String, Map<String, Explanation>> byNode(KafkaConnection kafka, Topics topics, Instant at,
      boolean fromCheckpoint) {
    PrintWriter err = new PrintWriter(new StringWriter());
    Map<String, Map<String, Explanation>> out = new HashMap<>();
    try (Audit audit = AuditReplay.replay(kafka, topics, at, fromCheckpoint, err, Progress.of(err, "audit", false))) {
      assertThat(audit.resumedFrom().isPresent()).isEqualTo(fromCheckpoint);
      for (String node : audit.nodes()) {
        out.put(node, explained(kafka, topics, audit, node, err));
      }
    }
    return out;
  }

  /** The node's pods explained, their last decisions and outcomes completed (AuditReplay.complete). */
  private static Map<String, Explanation> explained(KafkaConnection kafka, Topics topics, Audit audit, String node,
      PrintWriter err) {
    AuditReplay.complete(kafka, topics, audit, node, audit.booking(node).pods().keySet(), err);
    Map<String, Explanation> out = new HashMap<>();
    for (String uid : audit.booking(node).pods().keySet()) {
      out.put(uid, audit.explain(node, uid));
    }
    return out;
  }
}
