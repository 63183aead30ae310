package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * A task Kafka Streams revives. On a {@link TaskCorruptedException} (under exactly-once: a send
 * the producer could not deliver, a commit that timed out) Streams aborts the transaction, closes
 * the task dirty, restores its stores from the changelogs, seeks its inputs back to the last
 * commit and initialises the task again — the same {@code StreamTask}, the same processor
 * instances ({@code TaskManager.closeDirtyAndRevive}, {@code Task.revive}; only a lost task is
 * built anew). That is played here by hand on one {@link BookingProcessor}: its stores before the
 * decision are the committed state, a second context holding them is the revived task, and
 * {@code init} is called on the same instance again. The node's inputs were committed before the
 * decision, so nothing read again makes it dirty: it must be decided again within one debounce
 * period because the revived processor re-evaluates every node, as after a restart. The same is
 * played on a {@link CheckpointProcessor}: a checkpoint of the aborted transaction is written
 * again. And a decision whose send fails with an exception Streams leaves to the processing
 * handler is not remembered as sent, and its node is due again.
 */
class TaskReviveTest {
  private static final Instant T0 = TopologyHarness.T0;
  /** The default debounce (2 s), its jitter (≤ 10 %) and a tick. */
  private static final Duration ONE_DEBOUNCE = Duration.ofMillis(2300);

  private final GlobalVersion globals = new GlobalVersion();
  private final BookingProcessor processor = new BookingProcessor(
      TopologySettings.defaults(Topics.defaults()), globals, TopologyListener.NONE);

  @Test
  void aNodeDecidedInTheAbortedTransactionIsDecidedAgainWithinOneDebounce() {
    MockProcessorContext<String, Object> first = context(Map.of());
    processor.init(first);
    Map<String, List<KeyValue<String, ?>>> committed = bookNodeAndPod(first);

    Instant decidedAt = tickUntilDecided(first, T0, ONE_DEBOUNCE);
    assertThat(decisions(first)).as("decided in the transaction that aborts").hasSize(1);

    MockProcessorContext<String, Object> revived = revive(committed);
    assertThat(first.scheduledPunctuators()).as("Streams keeps a revived task's schedules: the old one is cancelled")
        .allMatch(MockProcessorContext.CapturedPunctuator::cancelled);
    assertThat(pendingTargets(revived)).as("the aborted decision left no pending target").isEmpty();
    tickUntilDecided(revived, decidedAt, ONE_DEBOUNCE);
    assertThat(decisions(revived)).as("the revived task decides the node again within one debounce")
        .singleElement().satisfies(d -> assertThat(d.node()).isEqualTo("n1"));
  }

  @Test
  void aSendFailureAtTheDecisionIsLeftToStreamsAndTheNodeIsDecidedAfterTheRevive() {
    MockProcessorContext<String, Object> failing = new MockProcessorContext<>() {
      @Override
      public <K extends String, V extends Object> void forward(Record<K, V> record, String childName) {
        // the producer's stored error, thrown by the record collector at the next send
        throw new TaskCorruptedException(Set.of(taskId()));
      }
    };
    addStores(failing, Map.of());
    processor.init(failing);
    Map<String, List<KeyValue<String, ?>>> committed = bookNodeAndPod(failing);

    Instant at = T0.plus(ONE_DEBOUNCE);
    Throwable thrown = catchThrowable(() -> punctuate(failing, at));

    MockProcessorContext<String, Object> revived = revive(committed);
    tickUntilDecided(revived, at, ONE_DEBOUNCE);
    assertThat(decisions(revived)).as("the node whose decision could not be sent, decided after the revive")
        .singleElement().satisfies(d -> assertThat(d.node()).isEqualTo("n1"));
    assertThat(thrown).as("Streams' own exception, not a node's failure to dead-letter")
        .isInstanceOf(TaskCorruptedException.class);
  }

  @Test
  void aDecisionWhoseSendFailedIsNotRememberedAsSentAndItsNodeIsDueAgainAfterTheBackoffPeriod() {
    boolean[] failing = {true};
    MockProcessorContext<String, Object> context = new MockProcessorContext<>() {
      @Override
      public <K extends String, V extends Object> void forward(Record<K, V> record, String childName) {
        if (failing[0] && HeadroomTopology.DECISIONS_SINK.equals(childName)) {
          // a send Streams does not take as its own (the production handler said fail): dead-lettered
          throw new StreamsException("decision not sent");
        }
        super.forward(record, childName);
      }
    };
    addStores(context, Map.of());
    processor.init(context);
    bookNodeAndPod(context);

    Instant failedAt = T0.plus(ONE_DEBOUNCE);
    assertThat(catchThrowable(() -> punctuate(context, failedAt))).as("the node's failure, to dead-letter")
        .isInstanceOf(NodeFailure.class);
    assertThat(pendingTargets(context)).as("a decision not sent leaves no pending target").isEmpty();

    failing[0] = false;
    Duration backoff = ClusterConfig.DEFAULTS.backoffPeriod();
    Instant decidedAt = tickUntilDecided(context, failedAt, backoff.plus(ONE_DEBOUNCE));
    assertThat(decisions(context)).as("the node is decided again, with no event for it")
        .singleElement().satisfies(d -> assertThat(d.node()).isEqualTo("n1"));
    assertThat(decidedAt).as("after the backoff period, not at every tick").isAfterOrEqualTo(failedAt.plus(backoff));
  }

  @Test
  void aCheckpointWrittenInTheAbortedTransactionIsWrittenAgainByTheRevivedTask() {
    CheckpointProcessor checkpoints = checkpointProcessor();
    Aborted aborted = checkpointThenAbort(checkpoints);
    MockProcessorContext<String, NodeCheckpoint> revived = checkpointContext(aborted.committed());
    checkpoints.close();
    checkpoints.init(revived);
    readAgain(checkpoints, revived);
    assertSameCheckpoints(checkpointsOf(revived), aborted.written());
  }

  @Test
  void aCheckpointWrittenInTheTransactionAKillAbortedIsWrittenAfterTheRestart() {
    Aborted aborted = checkpointThenAbort(checkpointProcessor());
    CheckpointProcessor restarted = checkpointProcessor();
    MockProcessorContext<String, NodeCheckpoint> context = checkpointContext(aborted.committed());
    restarted.init(context);
    readAgain(restarted, context);
    assertSameCheckpoints(checkpointsOf(context), aborted.written());
  }

  /** The checkpoints the aborted transaction held, and the stores as committed before it. */
  private record Aborted(List<NodeCheckpoint> written, Map<String, List<KeyValue<String, ?>>> committed) {}

  private static final List<String> CHECKPOINT_STORES = List.of(HeadroomTopology.NODES_STORE,
      HeadroomTopology.PODS_STORE, HeadroomTopology.CHECKPOINT_CUT_STORE);
  private static final Instant NEXT_BOUNDARY = T0.plus(HeadroomTopology.CHECKPOINT_INTERVAL);

  private static CheckpointProcessor checkpointProcessor() {
    Topics topics = Topics.defaults();
    return new CheckpointProcessor(HeadroomTopology.CHECKPOINT_INTERVAL, TopologyListener.NONE,
        List.of(topics.pods(), topics.nodes(), topics.outcomes()));
  }

  @Test
  void aTaskRestartedWithinAnIntervalWritesTheReadOrderOfTheWholeInterval() {
    MockProcessorContext<String, NodeCheckpoint> before = checkpointContext(Map.of());
    CheckpointProcessor first = checkpointProcessor();
    first.init(before);
    read(first, before, "headroom.nodes", 3, T0.plusSeconds(1));
    read(first, before, "headroom.pods", 7, T0.plusSeconds(2));
    read(first, before, "headroom.pods", 8, T0.plusSeconds(3));
    before.<KeyValueStore<String, NodeSnapshot>>getStateStore(HeadroomTopology.NODES_STORE).put("n1", TopologyHarness.node16());
    Map<String, List<KeyValue<String, ?>>> committed = contents(before, CHECKPOINT_STORES);

    CheckpointProcessor restarted = checkpointProcessor();
    MockProcessorContext<String, NodeCheckpoint> after = checkpointContext(committed);
    restarted.init(after);
    read(restarted, after, "headroom.nodes", 4, T0.plusSeconds(4));
    read(restarted, after, "headroom.pods", 9, NEXT_BOUNDARY.plusSeconds(5));
    assertThat(checkpointsOf(after)).singleElement().satisfies(c -> assertThat(c.order()).as("read before and after")
        .containsExactly(new Run("headroom.nodes", 1), new Run("headroom.pods", 2), new Run("headroom.nodes", 1)));

    // the boundary written cleared the stored order: the next interval's starts afresh
    CheckpointProcessor again = checkpointProcessor();
    MockProcessorContext<String, NodeCheckpoint> later = checkpointContext(contents(after, CHECKPOINT_STORES));
    again.init(later);
    read(again, later, "headroom.pods", 10, NEXT_BOUNDARY.plus(HeadroomTopology.CHECKPOINT_INTERVAL));
    assertThat(checkpointsOf(later)).singleElement().satisfies(c -> assertThat(c.order())
        .containsExactly(new Run("headroom.pods", 1)));
  }

  @Test
  void aStoreWrittenBeforeTheOrderWasKeptGivesThatBoundaryNoOrderAndTheNextOne() {
    // the boundary and an offset as the Long serde wrote them, no order: a task read n1 then upgraded
    Serde<Long> longs = Serdes.Long();
    Map<String, List<KeyValue<String, ?>>> upgraded = Map.of(HeadroomTopology.CHECKPOINT_CUT_STORE, List.of(
        KeyValue.pair("boundary", longs.serializer().serialize("", T0.toEpochMilli())),
        KeyValue.pair("headroom.pods:0", longs.serializer().serialize("", 8L))),
        HeadroomTopology.NODES_STORE, List.of(KeyValue.pair("n1", TopologyHarness.node16())));
    MockProcessorContext<String, NodeCheckpoint> context = checkpointContext(upgraded);
    CheckpointProcessor checkpoints = checkpointProcessor();
    checkpoints.init(context);
    read(checkpoints, context, "headroom.nodes", 3, T0.plusSeconds(4));
    read(checkpoints, context, "headroom.pods", 8, NEXT_BOUNDARY.plusSeconds(5));
    assertThat(checkpointsOf(context)).singleElement().satisfies(c -> {
      assertThat(c.order()).as("what was read before the upgrade is not known").isNull();
      assertThat(c.cut()).as("the stored offsets read back").contains(new Position("headroom.pods", 0, 8));
    });
    read(checkpoints, context, "headroom.pods", 9, NEXT_BOUNDARY.plus(HeadroomTopology.CHECKPOINT_INTERVAL));
    assertThat(checkpointsOf(context)).last().satisfies(c -> assertThat(c.order())
        .containsExactly(new Run("headroom.pods", 1)));
  }

  /**
   * Records of two partitions read and committed, a node booked; then the first record past the
   * next boundary, whose checkpoint is written in the transaction that aborts.
   */
  private Aborted checkpointThenAbort(CheckpointProcessor checkpoints) {
    MockProcessorContext<String, NodeCheckpoint> context = checkpointContext(Map.of());
    checkpoints.init(context);
    read(checkpoints, context, "headroom.nodes", 3, T0.plusSeconds(1));
    read(checkpoints, context, "headroom.pods", 7, T0.plusSeconds(2));
    KeyValueStore<String, NodeSnapshot> nodes = context.getStateStore(HeadroomTopology.NODES_STORE);
    nodes.put("n1", TopologyHarness.node16()); // what the booking processor folded in
    Map<String, List<KeyValue<String, ?>>> committed = contents(context, CHECKPOINT_STORES);
    readAgain(checkpoints, context);
    List<NodeCheckpoint> written = checkpointsOf(context);
    assertThat(written).as("written in the transaction that aborts").singleElement()
        .satisfies(c -> assertThat(c.at()).isEqualTo(NEXT_BOUNDARY));
    return new Aborted(written, committed);
  }

  /** The first record read after the last commit: past the next boundary. */
  private static void readAgain(CheckpointProcessor checkpoints, MockProcessorContext<String, NodeCheckpoint> context) {
    read(checkpoints, context, "headroom.pods", 8, NEXT_BOUNDARY.plusSeconds(5));
  }

  private static void read(CheckpointProcessor checkpoints, MockProcessorContext<String, NodeCheckpoint> context,
      String topic, long offset, Instant at) {
    context.setRecordMetadata(topic, 0, offset);
    checkpoints.process(new Record<>("n1", new byte[0], at.toEpochMilli()));
  }

  /**
   * The same checkpoints; the cut's positions in any order (a restored one lists them by key);
   * the same read order (restored from the store with the cut).
   */
  private static void assertSameCheckpoints(List<NodeCheckpoint> actual, List<NodeCheckpoint> expected) {
    assertThat(actual).as("the checkpoint the aborted transaction held, written again").hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(expected.get(i).order()).isNotEmpty();
      assertThat(actual.get(i).withCut(List.of())).isEqualTo(expected.get(i).withCut(List.of()));
      assertThat(actual.get(i).cut()).as("at the committed cut").containsExactlyInAnyOrderElementsOf(expected.get(i).cut());
    }
  }

  private static List<NodeCheckpoint> checkpointsOf(MockProcessorContext<String, NodeCheckpoint> context) {
    return context.forwarded().stream().<NodeCheckpoint>map(f -> f.record().value()).toList();
  }

  private static MockProcessorContext<String, NodeCheckpoint> checkpointContext(Map<String, List<KeyValue<String, ?>>> restored) {
    MockProcessorContext<String, NodeCheckpoint> context = new MockProcessorContext<>();
    add(context, HeadroomTopology.NODES_STORE, new JsonSerde<>(NodeSnapshot.class), restored);
    add(context, HeadroomTopology.PODS_STORE, new PodEntrySerde(), restored);
    add(context, HeadroomTopology.CHECKPOINT_CUT_STORE, Serdes.ByteArray(), restored);
    return context;
  }

  /** A node and a pod that wants a grow, booked and committed (the decision's transaction is later). */
  private Map<String, List<KeyValue<String, ?>>> bookNodeAndPod(MockProcessorContext<String, Object> context) {
    context.setCurrentSystemTimeMs(T0.toEpochMilli());
    process(TopologyHarness.node16());
    process(pod("team-a", "web-1", "n1", 2000, 0));
    return contents(context);
  }

  private void process(NodeEvent event) {
    processor.process(new Record<>(event.node(), event, T0.toEpochMilli()));
  }

  /** What Streams does on a revive: the processor closed, its stores restored, init called again on it. */
  private MockProcessorContext<String, Object> revive(Map<String, List<KeyValue<String, ?>>> committed) {
    processor.close();
    MockProcessorContext<String, Object> revived = context(committed);
    processor.init(revived);
    return revived;
  }

  /** Ticks every 100 ms from {@code from} for at most {@code within}; the time of the first decision. */
  private Instant tickUntilDecided(MockProcessorContext<String, Object> context, Instant from, Duration within) {
    for (Instant t = from.plusMillis(100); !t.isAfter(from.plus(within)); t = t.plusMillis(100)) {
      punctuate(context, t);
      if (!decisions(context).isEmpty()) {
        return t;
      }
    }
    return from.plus(within);
  }

  private static void punctuate(MockProcessorContext<String, Object> context, Instant at) {
    context.setCurrentSystemTimeMs(at.toEpochMilli());
    context.scheduledPunctuators().get(context.scheduledPunctuators().size() - 1).getPunctuator()
        .punctuate(at.toEpochMilli());
  }

  private static List<NodeDecision> decisions(MockProcessorContext<String, Object> context) {
    return context.forwarded(HeadroomTopology.DECISIONS_SINK).stream()
        .map(f -> (NodeDecision) f.record().value()).toList();
  }

  private static List<PodEntry> pendingTargets(MockProcessorContext<String, Object> context) {
    KeyValueStore<String, PodEntry> pods = context.getStateStore(HeadroomTopology.PODS_STORE);
    List<PodEntry> pending = new ArrayList<>();
    try (KeyValueIterator<String, PodEntry> it = pods.all()) {
      it.forEachRemaining(kv -> {
        if (kv.value.pending() != null) {
          pending.add(kv.value);
        }
      });
    }
    return pending;
  }

  private MockProcessorContext<String, Object> context(Map<String, List<KeyValue<String, ?>>> restored) {
    MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    addStores(context, restored);
    return context;
  }

  /** The booking processor's stores (no changelog: {@code restored} stands for it), the globals loaded. */
  private void addStores(MockProcessorContext<?, ?> context, Map<String, List<KeyValue<String, ?>>> restored) {
    add(context, HeadroomTopology.NODES_STORE, new JsonSerde<>(NodeSnapshot.class), restored);
    add(context, HeadroomTopology.PODS_STORE, new PodEntrySerde(), restored);
    add(context, HeadroomTopology.POD_NODES_STORE, Serdes.String(), restored);
    add(context, HeadroomTopology.FENCES_STORE, Serdes.Long(), restored);
    add(context, HeadroomTopology.GANG_NODES_STORE, new JsonSerde<>(NodeGangs.class), restored);
    add(context, HeadroomTopology.NAMESPACES_STORE, HeadroomSerdes.namespaces(),
        Map.of(HeadroomTopology.NAMESPACES_STORE, List.of(KeyValue.pair("team-a", managedNs("team-a")))));
    add(context, HeadroomTopology.CONFIG_STORE, HeadroomSerdes.config(), Map.of(HeadroomTopology.CONFIG_STORE,
        List.of(KeyValue.pair(HeadroomKeys.CONFIG_NAME, ClusterConfig.DEFAULTS.withDryRun(false)))));
    if (globals.get() == 0) {
      globals.bump(); // the global tables were read, as before any task runs
    }
  }

  @SuppressWarnings("unchecked") // each store's entries are of its own serde's type
  private static <V> void add(MockProcessorContext<?, ?> context, String name, Serde<V> values,
      Map<String, List<KeyValue<String, ?>>> restored) {
    KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
        Serdes.String(), values).withLoggingDisabled().build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
    for (KeyValue<String, ?> kv : restored.getOrDefault(name, List.of())) {
      store.put(kv.key, (V) kv.value);
    }
  }

  /** The booking stores' entries: the state the last commit left, as a restore gives it back. */
  private static Map<String, List<KeyValue<String, ?>>> contents(MockProcessorContext<String, Object> context) {
    return contents(context, List.of(HeadroomTopology.NODES_STORE, HeadroomTopology.PODS_STORE,
        HeadroomTopology.FENCES_STORE, HeadroomTopology.GANG_NODES_STORE));
  }

  /** The entries of the stores {@code names}, as a restore from their changelogs gives them back. */
  private static Map<String, List<KeyValue<String, ?>>> contents(MockProcessorContext<?, ?> context, List<String> names) {
    Map<String, List<KeyValue<String, ?>>> all = new LinkedHashMap<>();
    for (String name : names) {
      KeyValueStore<String, Object> store = context.getStateStore(name);
      List<KeyValue<String, ?>> entries = new ArrayList<>();
      try (KeyValueIterator<String, Object> it = store.all()) {
        it.forEachRemaining(entries::add);
      }
      all.put(name, entries);
    }
    return all;
  }
}
