package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Records a {@link Timeline} while an audit replays up to the window's end: after each step that
 * concerns the subject's node (a record keyed by it, a config or namespace change, the window's
 * start and end) it samples the node's booking and keeps what changed. States before the window
 * are kept only as the one in force at its start.
 */
public final class TimelineRecorder implements Audit.Listener {
  private final Subject subject;
  private final Instant from;
  private final Instant to;
  private final List<String> globalTopics;
  private final String podsTopic;
  private String node;
  private boolean inWindow;
  /** Whether the node was sampled since it was found: only then do new pods count as arrivals. */
  private boolean sampled;
  private final List<Timeline.NodePoint> nodePoints = new ArrayList<>();
  /** Per pod ({@code namespace/name}), per container: the points so far. */
  private final Map<String, Map<String, List<Timeline.LimitPoint>>> limits = new TreeMap<>();
  private final Map<String, Instant> departed = new HashMap<>();
  /** The pods on the node at the last sample: uid → snapshot. */
  private Map<String, PodSnapshot> present = Map.of();
  private final List<Timeline.DecisionMark> decisions = new ArrayList<>();
  private final List<Timeline.OutcomeMark> outcomes = new ArrayList<>();
  private final List<Timeline.NeighbourMark> neighbours = new ArrayList<>();

  /** One pod ({@code namespace} and {@code name}), or every pod on {@code node}. */
  public record Subject(String namespace, String name, String node) {
    public static Subject pod(String namespace, String name) {
      return new Subject(namespace, name, null);
    }

    public static Subject node(String node) {
      return new Subject(null, null, node);
    }

    boolean covers(String podNamespace, String podName) {
      return node != null || (namespace.equals(podNamespace) && name.equals(podName));
    }

    @Override
    public String toString() {
      return node != null ? "node " + node : "pod " + namespace + "/" + name;
    }
  }

  public TimelineRecorder(Subject subject, Instant from, Instant to, Topics topics) {
    if (to.isBefore(from)) {
      throw new IllegalArgumentException("--to " + to + " is before --from " + from);
    }
    this.subject = subject;
    this.from = from;
    this.to = to;
    this.globalTopics = topics.compacted();
    this.podsTopic = topics.pods();
    this.node = subject.node();
  }

  @Override
  public void stepped(Audit audit, String topic, String key, Instant at, List<NodeDecision> decided,
      ResizeOutcome outcome) {
    boolean crossing = !inWindow && !at.isBefore(from);
    inWindow |= crossing;
    if (node == null || (subject.node() == null && subjectUid() == null && (crossing || podsTopic.equals(topic)))) {
      locate(audit, topic, key, crossing);
    }
    if (node == null) {
      return;
    }
    for (NodeDecision d : decided) {
      if (d.node().equals(node) && !d.at().isBefore(from)) {
        for (PodChange c : d.changes()) {
          if (subject.covers(c.namespace(), c.name())) {
            decisions.add(new Timeline.DecisionMark(d.at(), c.namespace(), c.name(), c.reason(), c.fromMilli(),
                c.targetMilli(), d.stats().factor(), d.dryRun(), c.containers()));
          }
        }
      }
    }
    if (outcome != null && outcome.node().equals(node) && subject.covers(outcome.namespace(), outcome.name())
        && !outcome.at().isBefore(from)) {
      outcomes.add(new Timeline.OutcomeMark(outcome.at(), outcome.namespace(), outcome.name(),
          outcome.result().wireName(), outcome.targetMilli(), outcome.message()));
    }
    if (topic == null || crossing || node.equals(key) || globalTopics.contains(topic)) {
      // Before the window, or a step that did not touch the node: the state in force at its start.
      sample(audit, !inWindow || (crossing && !node.equals(key)) ? from : at);
    }
  }

  /** The uid under which the subject pod was last seen on the node, or null. */
  private String subjectUid() {
    for (Map.Entry<String, PodSnapshot> e : present.entrySet()) {
      if (subject.covers(e.getValue().namespace(), e.getValue().name())) {
        return e.getKey();
      }
    }
    return null;
  }

  /** Finds the subject pod's node: on the node a pod record names, or anywhere once the window starts. */
  private void locate(Audit audit, String topic, String key, boolean crossing) {
    Optional<String> found = Optional.empty();
    if (crossing || topic == null) {
      found = audit.locate(subject.namespace(), subject.name()).map(Map.Entry::getKey);
    } else if (podsTopic.equals(topic) && key != null) {
      found = audit.booking(key).pods().values().stream()
          .filter(e -> subject.covers(e.pod().namespace(), e.pod().name())).findFirst().map(e -> key);
    }
    if (found.isPresent() && !found.get().equals(node)) {
      node = found.get();
      sampled = false; // a new node: its pods are not arrivals
    }
  }

  private void sample(Audit audit, Instant at) {
    NodeBooking booking = audit.booking(node);
    if (booking.snapshot() == null) {
      return;
    }
    Map<String, PodSnapshot> now = new LinkedHashMap<>();
    for (Map.Entry<String, PodEntry> e : booking.pods().entrySet()) {
      now.put(e.getKey(), e.getValue().pod());
    }
    if (sampled) {
      noteNeighbours(now, at);
    }
    sampled = true;
    present = now;
    String anyUid = now.keySet().stream().filter(uid -> subject.covers(now.get(uid).namespace(), now.get(uid).name()))
        .findFirst().orElse(now.keySet().stream().findFirst().orElse(null));
    if (anyUid != null) {
      Explanation e = audit.explain(node, anyUid);
      add(nodePoints, new Timeline.NodePoint(at, node, e.allocatableMilli(), e.slackMilli(), e.factor()),
          Timeline.NodePoint::at, (a, b) -> a.node().equals(b.node()) && a.allocatableMilli() == b.allocatableMilli()
              && a.slackMilli() == b.slackMilli() && a.factor() == b.factor());
    }
    for (PodSnapshot pod : now.values()) {
      if (subject.covers(pod.namespace(), pod.name())) {
        String ref = pod.namespace() + "/" + pod.name();
        departed.remove(ref);
        Map<String, List<Timeline.LimitPoint>> containers = limits.computeIfAbsent(ref, r -> new LinkedHashMap<>());
        for (ContainerSnapshot c : pod.containers()) {
          if (c.limitBearing()) {
            add(containers.computeIfAbsent(c.name(), n -> new ArrayList<>()),
                new Timeline.LimitPoint(at, c.cpuRequestMilli(), c.cpuLimitMilli()), Timeline.LimitPoint::at,
                (a, b) -> a.requestMilli() == b.requestMilli() && a.limitMilli() == b.limitMilli());
          }
        }
      }
    }
  }

  /** Arrivals and departures since the last sample (the first sample's pods were already there). */
  private void noteNeighbours(Map<String, PodSnapshot> now, Instant at) {
    for (Map.Entry<String, PodSnapshot> e : now.entrySet()) {
      if (!present.containsKey(e.getKey()) && inWindow) {
        neighbours.add(mark(e.getValue(), at, true));
      }
    }
    for (Map.Entry<String, PodSnapshot> e : present.entrySet()) {
      if (!now.containsKey(e.getKey())) {
        PodSnapshot gone = e.getValue();
        if (inWindow) {
          neighbours.add(mark(gone, at, false));
        }
        if (subject.covers(gone.namespace(), gone.name())) {
          departed.put(gone.namespace() + "/" + gone.name(), at);
        }
      }
    }
  }

  private static Timeline.NeighbourMark mark(PodSnapshot pod, Instant at, boolean arrived) {
    return new Timeline.NeighbourMark(at, pod.namespace(), pod.name(), arrived, pod.effectiveRequestMilli());
  }

  /**
   * Appends {@code point} unless it equals the last; it replaces the last when that one is at the
   * same moment (several records at one time show as their end state) or still before the window.
   */
  private <T> void add(List<T> points, T point, Function<T, Instant> at, BiPredicate<T, T> same) {
    if (!points.isEmpty() && same.test(points.get(points.size() - 1), point)) {
      return;
    }
    if (!points.isEmpty() && (!inWindow || at.apply(points.get(points.size() - 1)).equals(at.apply(point)))) {
      points.remove(points.size() - 1);
      if (!points.isEmpty() && same.test(points.get(points.size() - 1), point)) {
        return; // back to what it was before that moment
      }
    }
    points.add(point);
  }

  /** The timeline recorded; call once the replay has reached {@code to}. */
  public Timeline timeline() {
    List<Timeline.PodTrack> pods = new ArrayList<>();
    limits.forEach((ref, containers) -> {
      String[] parts = ref.split("/", 2);
      List<Timeline.ContainerTrack> tracks = new ArrayList<>();
      containers.forEach((name, points) -> tracks.add(new Timeline.ContainerTrack(name, points)));
      Instant gone = departed.get(ref);
      if (gone == null || !gone.isBefore(from)) {
        pods.add(new Timeline.PodTrack(parts[0], parts[1], tracks, gone));
      }
    });
    List<Timeline.NeighbourMark> moves = new ArrayList<>(neighbours);
    moves.sort(Comparator.comparing(Timeline.NeighbourMark::at));
    return new Timeline(subject.toString(), from, to, nodePoints, pods, decisions, outcomes, moves);
  }
}
