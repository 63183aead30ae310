package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * {@code headroom audit}: replays the retained input topics up to a moment through the
 * production topology (the event log is the source of truth) and answers what was in force then
 * and why. Keeps the replay open for queries; close it when done.
 */
public final class Audit implements AutoCloseable {
  /** How far a replay got, for progress output. */
  public interface Progress {
    Progress NONE = (records, at) -> {};

    void replayed(long records, Instant at);
  }

  /**
   * Sees the replay step by step (an audit over a window draws from it): after each record is
   * folded, and once more when the clock has reached the end, with the decisions that step took
   * and the outcome the record carried (null if none).
   */
  public interface Listener {
    Listener NONE = (audit, topic, key, at, decided, outcome) -> {};

    /** {@code topic} and {@code key} are the record's; both null for the step that ends the replay. */
    void stepped(Audit audit, String topic, String key, Instant at, List<NodeDecision> decided,
        ResizeOutcome outcome);
  }

  public static final long PROGRESS_EVERY = 100_000;

  /**
   * How long before the audited moment the checkpoint a replay starts from must be. A checkpoint
   * leaves out what is in flight at its boundary (a node due within the debounce, at most {@code
   * maxDebounceDelay}, 10 s by default; a target pending until the pod confirms or refuses it, or
   * its {@code backoffPeriod}, 60 s, runs out), so a replay from it differs from the whole log's
   * replay only until that has settled: five minutes covers the defaults with room, and costs at
   * most one interval of events more.
   */
  public static final Duration SETTLE = Duration.ofMinutes(5);

  private final ReplayEngine engine;
  private final Map<String, NodeDecision> lastDecision = new HashMap<>();
  private final Map<String, ResizeOutcome> lastOutcome = new HashMap<>();
  /** Pods whose last decision was read back from the decisions topic ({@link #complete}). */
  private final Set<String> recalled = new HashSet<>();
  private long records;
  private long decisions;
  /** The checkpoints the replay started from, or null: from the log's beginning. */
  private CheckpointCut cut;

  private Audit(ReplayEngine engine) {
    this.engine = engine;
  }

  /** The topics a replay reads, ties broken in this order (config and namespaces first). */
  public static List<String> inputTopics(Topics topics) {
    return List.of(topics.config(), topics.namespaces(), topics.nodes(), topics.pods(), topics.outcomes());
  }

  /**
   * Replays {@code history} (the {@link #inputTopics}) up to and including {@code at}.
   *
   * @throws IllegalArgumentException when {@code at} is before the retained history
   */
  public static Audit replay(TopicHistory history, Topics topics, Instant at, Progress progress) {
    return replay(history, topics, at, progress, Listener.NONE);
  }

  /** As {@link #replay(TopicHistory, Topics, Instant, Progress)}, each step shown to {@code listener}. */
  public static Audit replay(TopicHistory history, Topics topics, Instant at, Progress progress, Listener listener) {
    Instant first = history.peekTime();
    if (first == null) {
      throw new IllegalArgumentException("the topics under prefix " + topics.prefix() + " hold no history");
    }
    if (at.isBefore(first)) {
      throw new IllegalArgumentException(at + " is before the retained history, which starts at " + first
          + " (retention of the node-keyed topics is the audit window)");
    }
    return run(history, topics, at, progress, first, null, listener, null);
  }

  /**
   * Replays from {@code cut} instead of the log's beginning: {@code history} holds the global
   * topics from their beginning and the node-keyed ones from the cut ({@link #scope}). The
   * globals before the cut are read first, the bookings restored at it, and only the node events
   * after it replayed: the replay then goes on as the topology does after a restart (every node
   * re-evaluated within one debounce, no target in flight). A node event past the cut may be
   * older than its boundary (the live task read it after a later record of another topic): the
   * bookings are restored before the first node event, so it is folded after them, as it was live.
   */
  public static Audit resume(CheckpointCut cut, TopicHistory history, Topics topics, Instant at, Progress progress) {
    return resume(cut, history, topics, at, progress, Listener.NONE);
  }

  /** As {@link #resume(CheckpointCut, TopicHistory, Topics, Instant, Progress)}, each step shown to {@code listener}. */
  public static Audit resume(CheckpointCut cut, TopicHistory history, Topics topics, Instant at, Progress progress,
      Listener listener) {
    return resume(cut, history, topics, at, progress, listener, null);
  }

  /**
   * What a replay from {@code cut} reads: every partition of the global topics, and each
   * node-keyed partition from the cut's offset in it ({@link CheckpointCut#offsets}), or, for a
   * partition the cut does not name (a checkpoint written before cuts), from the boundary's time.
   */
  public static TopicHistory.Scope scope(CheckpointCut cut, Topics topics) {
    Map<String, Instant> from = new HashMap<>();
    topics.nodeKeyed().forEach(t -> from.put(t, cut.at()));
    return new TopicHistory.Scope(from, tp -> true, cut.offsets());
  }

  /**
   * As {@link #resume(CheckpointCut, TopicHistory, Topics, Instant, Progress)}, folding only
   * {@code node}'s records of the node-keyed topics (and the global ones): the replay of one node
   * from its own checkpoint ({@link CheckpointReader#latestOf}). A node's booking and decisions
   * depend on its own events and the global topics; the other nodes' records still move the
   * clock, so the node is decided at the moments the whole cluster's replay decides it.
   */
  public static Audit resumeNode(CheckpointCut cut, TopicHistory history, Topics topics, Instant at, String node,
      Progress progress) {
    return resumeNodes(cut, history, topics, at, Set.of(node), progress);
  }

  /**
   * As {@link #resumeNode}, folding the node-keyed records of each of {@code nodes} (each node's
   * replay is its own: {@link PodPlaces} replays the few nodes a pod was on).
   */
  public static Audit resumeNodes(CheckpointCut cut, TopicHistory history, Topics topics, Instant at,
      Set<String> nodes, Progress progress) {
    return resume(cut, history, topics, at, progress, Listener.NONE, Set.copyOf(nodes));
  }

  private static Audit resume(CheckpointCut cut, TopicHistory history, Topics topics, Instant at, Progress progress,
      Listener listener, Set<String> nodes) {
    if (at.isBefore(cut.at())) {
      throw new IllegalArgumentException(at + " is before the checkpoint at " + cut.at());
    }
    Instant first = history.peekTime();
    Instant start = first == null || first.isAfter(cut.at()) ? cut.at() : first;
    return run(history, topics, at, progress, start, cut, listener, nodes);
  }

  /** The replay; of the node-keyed topics only the records of {@code nodes} folded when it is not null. */
  private static Audit run(TopicHistory history, Topics topics, Instant at, Progress progress, Instant start,
      CheckpointCut cut, Listener listener, Set<String> nodes) {
    Audit audit = new Audit(new ReplayEngine(TopologySettings.defaults(topics), TopologyListener.NONE, start,
        InlineTopology.WITHOUT_CHECKPOINTS));
    List<String> global = topics.compacted();
    boolean restored = cut == null;
    try {
      Instant next;
      while ((next = history.peekTime()) != null && !next.isAfter(at)) {
        ConsumerRecord<String, byte[]> r = history.next();
        if (!restored && (!global.contains(r.topic()) || !next.isBefore(cut.at()))) {
          audit.restore(cut, next);
          restored = true;
        }
        if (nodes != null && !global.contains(r.topic()) && (r.key() == null || !nodes.contains(r.key()))) {
          audit.engine.advanceTo(next); // another node's record: only the clock
          audit.drain();
          continue;
        }
        audit.engine.pipeRaw(r.topic(), r.key(), r.value(), Instant.ofEpochMilli(r.timestamp()));
        ResizeOutcome outcome = r.topic().equals(topics.outcomes()) && r.value() != null
            ? audit.noteOutcome(r.value()) : null;
        listener.stepped(audit, r.topic(), r.key(), Instant.ofEpochMilli(r.timestamp()), audit.drain(), outcome);
        if (++audit.records % PROGRESS_EVERY == 0) {
          progress.replayed(audit.records, Instant.ofEpochMilli(r.timestamp()));
        }
      }
      if (!restored) {
        audit.restore(cut, cut.at());
      }
      audit.engine.advanceTo(at);
      listener.stepped(audit, null, null, at, audit.drain(), null);
      return audit;
    } catch (RuntimeException e) {
      audit.close();
      throw e;
    }
  }

  /** Restores {@code cut} before the record at {@code next}: the clock goes no further than either. */
  private void restore(CheckpointCut cut, Instant next) {
    engine.advanceTo(next.isBefore(cut.at()) ? next : cut.at());
    drain();
    cut.nodes().forEach(engine::restore);
    this.cut = cut;
  }

  /**
   * After a start from a checkpoint, completes the answers for {@code uids} (pods on {@code node}
   * at the replayed moment) from the node's partitions of the decisions and outcomes topics
   * ({@link NodeLookback}), so they are the whole log's replay's. A checkpoint holds neither
   * (NodeCheckpoint), and the replay from it misses the decisions that were due at its boundary
   * (the debounce queue is not in it): each pod no replayed decision changed gets the last one
   * recorded at or before the replayed moment, read back from it through the time index; each pod
   * no replayed outcome concerned gets its last outcome from below the cut's offset in the node's
   * outcomes partition (where the replay started reading it). Does nothing after a replay from the
   * log's beginning.
   *
   * @return what was read back, or empty when nothing needed to be
   */
  public Optional<Recalled> complete(NodeLookback lookback, Topics topics, String node, Set<String> uids) {
    if (cut == null) {
      return Optional.empty();
    }
    Set<String> undecided = new TreeSet<>(uids);
    undecided.removeAll(lastDecision.keySet());
    Set<String> unsettled = new TreeSet<>(uids);
    unsettled.removeAll(lastOutcome.keySet());
    if (undecided.isEmpty() && unsettled.isEmpty()) {
      return Optional.empty();
    }
    NodeLookback.Found<NodeDecision> decided = undecided.isEmpty() ? none()
        : lookback.decisions(topics.decisions(), node, undecided,
            new NodeLookback.Start(engine.now().plusMillis(1), Map.of()));
    NodeLookback.Found<ResizeOutcome> settled = unsettled.isEmpty() ? none()
        : lookback.outcomes(topics.outcomes(), node, unsettled, new NodeLookback.Start(cut.at(), cut.offsets()));
    lastDecision.putAll(decided.byPod());
    recalled.addAll(decided.byPod().keySet());
    lastOutcome.putAll(settled.byPod());
    return Optional.of(new Recalled(undecided.size(), decided.byPod().size(), unsettled.size(),
        settled.byPod().size(), decided.records() + settled.records()));
  }

  private static <V> NodeLookback.Found<V> none() {
    return new NodeLookback.Found<>(Map.of(), 0, 0, true);
  }

  /**
   * What {@link #complete} read back.
   *
   * @param undecided pods asked for that no replayed decision changed
   * @param decided of those, the ones a recorded decision changed
   * @param unsettled pods asked for that no replayed outcome concerned
   * @param settled of those, the ones whose last outcome was found before it
   * @param records the records read back
   */
  public record Recalled(int undecided, int decided, int unsettled, int settled, long records) {}

  /** Whether {@code uid}'s last decision was read back from the decisions topic ({@link #complete}). */
  public boolean recalled(String uid) {
    return recalled.contains(uid);
  }

  /**
   * Whether a pod on {@code node} is in a gang: its limit can follow gang members on other nodes,
   * which a replay of the node alone ({@link #scope(CheckpointCut, Topics, String)}) does not see.
   */
  public boolean inGang(String node) {
    List<String> kinds = engine.storedConfig().gangOwnerKinds();
    return engine.booking(node).pods().values().stream().anyMatch(e -> GangKey.of(e.pod(), kinds) != null);
  }

  /** The checkpoint boundary the replay started from, if it did not start at the log's beginning. */
  public Optional<Instant> resumedFrom() {
    return Optional.ofNullable(cut).map(CheckpointCut::at);
  }

  private ResizeOutcome noteOutcome(byte[] value) {
    try {
      if (JsonCodec.decode(value, dev.kubeheadroom.schemas.NodeEvent.class) instanceof ResizeOutcome o) {
        lastOutcome.put(o.podUid(), o);
        return o;
      }
    } catch (SchemaException ignored) {
      // the topology sends it to the dead-letter topic; nothing to remember here
    }
    return null;
  }

  private List<NodeDecision> drain() {
    List<NodeDecision> drained = engine.drainDecisions();
    for (NodeDecision d : drained) {
      decisions++;
      for (PodChange c : d.changes()) {
        lastDecision.put(c.uid(), d);
      }
    }
    return drained;
  }

  public long records() {
    return records;
  }

  public long decisions() {
    return decisions;
  }

  public Instant at() {
    return engine.now();
  }

  /** The node and uid of the live pod {@code namespace/name}, if it was on a node then. */
  public Optional<Map.Entry<String, String>> locate(String namespace, String name) {
    for (String node : engine.nodeNames()) {
      for (Map.Entry<String, PodEntry> e : engine.booking(node).pods().entrySet()) {
        if (e.getValue().pod().namespace().equals(namespace) && e.getValue().pod().name().equals(name)) {
          return Optional.of(Map.entry(node, e.getKey()));
        }
      }
    }
    return Optional.empty();
  }

  public List<String> nodes() {
    return engine.nodeNames();
  }

  public NodeBooking booking(String node) {
    return engine.booking(node);
  }

  /** The explanation of one pod as of the replayed moment. */
  public Explanation explain(String node, String uid) {
    return Explanation.of(engine.booking(node), uid, engine.storedConfig(), engine::namespace, engine.now(),
        Optional.ofNullable(lastDecision.get(uid)), Optional.ofNullable(lastOutcome.get(uid)));
  }

  /**
   * Another booking of one of the replayed nodes (a what-if: a pod with other requests) explained
   * with the replayed config and namespaces, as of the replayed moment.
   */
  public Explanation explain(NodeBooking booking, String uid) {
    return Explanation.of(booking, uid, engine.storedConfig(), engine::namespace, engine.now(), Optional.empty(),
        Optional.empty());
  }

  @Override
  public void close() {
    engine.close();
  }
}
