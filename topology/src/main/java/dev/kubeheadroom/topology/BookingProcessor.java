package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.GangCeiling;
import dev.kubeheadroom.schemas.GangMembers;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.SyncMark;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.NodeDecider;
import dev.kubeheadroom.topology.booking.RefusalBackoff;
import dev.kubeheadroom.topology.booking.Step;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Folds node events into bookings and, on a wall-clock punctuator, decides the nodes whose
 * debounce expired. The only place that touches the stores; the logic lives in {@link
 * NodeBooking} and {@link NodeDecider}. Event time comes from record timestamps; decision time
 * from the punctuator (which replay drives), never from a clock read here.
 */
final class BookingProcessor implements Processor<String, Object, String, Object> {
  private final TopologySettings settings;
  private final GlobalVersion globals;
  private final TopologyListener listener;
  private Debouncer debouncer;
  private SyncHolds holds;
  private ProcessorContext<String, Object> context;
  private BookingStore bookings;
  private GangLink gangs;
  private EpochFence fence;
  private KeyValueStore<String, NamespaceInfo> namespaces;
  private KeyValueStore<String, ClusterConfig> configs;
  private long seenGlobals;
  private long configVersion;
  private ClusterConfig configCache;
  private Cancellable ticks;

  BookingProcessor(TopologySettings settings, GlobalVersion globals, TopologyListener listener) {
    this.settings = settings;
    this.globals = globals;
    this.listener = listener;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    // Kafka Streams calls init again on this same instance when it revives a task (closed dirty
    // on a TaskCorruptedException, its stores restored from the changelogs, its inputs read again
    // from the last commit): what this instance remembers goes with the aborted transaction, or a
    // node decided in it is never due again (DESIGN.md, "After a restart").
    this.debouncer = new Debouncer();
    this.holds = new SyncHolds(settings.syncHoldLimit());
    this.seenGlobals = -1; // forces a full re-evaluation after every (re)start and revive
    this.configVersion = -1;
    this.configCache = null;
    this.context = context;
    this.bookings = new BookingStore(
        context.getStateStore(HeadroomTopology.NODES_STORE),
        context.getStateStore(HeadroomTopology.PODS_STORE),
        context.getStateStore(HeadroomTopology.POD_NODES_STORE));
    this.fence = new EpochFence(context.getStateStore(HeadroomTopology.FENCES_STORE));
    this.gangs = new GangLink(context.getStateStore(HeadroomTopology.GANG_NODES_STORE));
    this.namespaces = context.getStateStore(HeadroomTopology.NAMESPACES_STORE);
    this.configs = context.getStateStore(HeadroomTopology.CONFIG_STORE);
    this.ticks = context.schedule(settings.tick(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
  }

  /** Cancels the punctuation: a revived task keeps its schedules, and init schedules one again. */
  @Override
  public void close() {
    if (ticks != null) {
      ticks.cancel();
      ticks = null;
    }
  }

  @Override
  public void process(Record<String, Object> record) {
    try {
      if (record.value() instanceof GangCeiling ceiling) {
        joinCeiling(ceiling, record.timestamp());
      } else {
        book(record.key(), (NodeEvent) record.value(), record.timestamp()); // no Record copy per event
      }
    } catch (TaskCorruptedException | TaskMigratedException e) {
      throw e; // Kafka Streams' own: it closes the task, not the record's fault
    } catch (RuntimeException e) {
      throw new NodeFailure(record.key(), e); // to the processing handler: dead-lettered, skipped
    }
  }

  private void book(String node, NodeEvent event, long timestamp) {
    if (!fence.admits(node, event.epoch())) {
      listener.fenced(context.recordMetadata().map(m -> m.topic()).orElse(""), node, event.epoch(),
          fence.fence(node));
      return;
    }
    if (event instanceof SyncMark mark) {
      syncMark(node, mark, timestamp);
      return;
    }
    Instant at = Instant.ofEpochMilli(timestamp);
    // The epoch has done its work: bookings hold the events as published, so a new leader's
    // re-publish of an unchanged pod or node changes nothing downstream.
    Step step = bookings.load(node).apply(event.withEpoch(0), at);
    bookings.save(step);
    if (event instanceof ResizeOutcome outcome && RefusalBackoff.refuses(outcome.result())
        && step.touchedPods().contains(outcome.podUid())) {
      // touched: counted (a redelivered refusal leaves the entry as it was)
      listener.backedOff(node, outcome.result(), step.booking().pods().get(outcome.podUid()).refusals());
    }
    if (event instanceof PodRemoved removed && removed.namespace() != null
        && removed.name() != null) {
      listener.podRemoved(node, removed.namespace(), removed.name());
    }
    if (event instanceof NodeRemoved) {
      forwardReports(gangs.removed(node), timestamp);
      debouncer.forget(node);
      holds.end(node); // nothing of it is due any more: its end would not be waited for
      listener.nodeRemoved(node);
    } else if (step.dirty()) {
      poolTiming(node, step.booking());
      debouncer.touch(node, changedAt(at, timestamp));
    }
  }

  /**
   * A re-publish's bracket around the node's pods: held from the begin, due at the end if a
   * decision was held back (its pods read whole now, it waits one debounce as after any change).
   */
  private void syncMark(String node, SyncMark mark, long timestamp) {
    if (mark.phase() == SyncMark.Phase.BEGIN) {
      holds.begin(node, changedAt(timestamp));
    } else if (holds.end(node)) {
      debouncer.wakeAt(node, null); // the hold's lapse: the node is due at its debounce instead
      debouncer.touch(node, changedAt(timestamp));
    }
  }

  /**
   * A gang's ceiling joined back to its member's node (§11.6): kept for the node's decisions, and
   * the node is due (as after any change) when it moves what the node would decide with.
   */
  private void joinCeiling(GangCeiling ceiling, long recordMs) {
    if (gangs.receive(ceiling)) {
      String node = ceiling.node();
      poolTiming(node, bookings.load(node));
      debouncer.touch(node, changedAt(recordMs));
    }
  }

  /** The node's reports to its gangs, keyed by gang: the repartition the gang processor reads. */
  private void forwardReports(List<GangMembers> reports, long timestampMs) {
    for (GangMembers report : reports) {
      context.forward(new Record<>(report.gang(), report, timestampMs), HeadroomTopology.GANG_MEMBERS_SINK);
    }
  }

  /**
   * Tells the debouncer the node pool's own debounce, if its pool sets one (docs/design/
   * headroom-design.txt §11.4). Without pools this is one list check per event.
   */
  private void poolTiming(String node, NodeBooking booking) {
    ClusterConfig config = config(globals.get());
    if (config.pools().isEmpty() || booking.snapshot() == null) {
      debouncer.timing(node, null);
      return;
    }
    NodePool pool = config.poolFor(booking.snapshot().labels()).orElse(null);
    if (pool == null || (pool.debouncePeriod() == null && pool.maxDebounceDelay() == null)) {
      debouncer.timing(node, null);
      return;
    }
    ClusterConfig own = config.forPool(pool);
    debouncer.timing(node, new Debouncer.Timing(own.debouncePeriod(), own.maxDebounceDelay()));
  }

  /**
   * When the node changed, for its debounce: the record's time, or the punctuator's clock when
   * that is later. Live, they agree unless the topology is catching up on a backlog, where
   * record times lie behind and every touched node would otherwise be due at the next tick,
   * deciding on half-read state again and again; the debounce then counts from when the change
   * was read, so a node is decided once its backlog went quiet (or at the max delay). Replays move
   * the clock to each record's time before piping it, so for them both are the record's time.
   */
  private Instant changedAt(long recordMs) {
    return Instant.ofEpochMilli(Math.max(recordMs, context.currentSystemTimeMs()));
  }

  /** As above, {@code record} being the record's time as an Instant: reused when it is the later. */
  private Instant changedAt(Instant record, long recordMs) {
    long wallMs = context.currentSystemTimeMs();
    return recordMs >= wallMs ? record : Instant.ofEpochMilli(wallMs);
  }

  private void punctuate(long wallClockMs) {
    Instant now = Instant.ofEpochMilli(wallClockMs);
    long version = globals.get();
    ClusterConfig config = config(version);
    if (version != seenGlobals) {
      if (seenGlobals == -1) {
        bookings.indexIfEmpty(); // first tick since init: state written before the pod index existed
      }
      seenGlobals = version;
      // A restart or a config/namespace change: re-evaluate every clean node, spread over one
      // debounce period by its name (docs/design/headroom-design.txt §8.6, a jittered initial sync), so neither a restart
      // nor a config change turns into one burst of decisions and patches. A dirty node is
      // evaluated at its debounce anyway, with the config in force then.
      for (String node : bookings.nodes()) {
        debouncer.wakeIfClean(node, now.plus(Debouncer.spread(node, config.debouncePeriod())));
      }
    }
    if (debouncer.isEmpty()) {
      return;
    }
    List<String> due = debouncer.takeDue(now, config.debouncePeriod(), config.maxDebounceDelay());
    for (int i = 0; i < due.size(); i++) {
      try {
        decide(due.get(i), config, now, wallClockMs);
      } catch (TaskCorruptedException | TaskMigratedException e) {
        // A send failed (the producer's stored error, met at this node's decision): Streams aborts
        // the transaction and revives or reassigns the task, which evaluates every node again.
        // Dead-lettered instead, the node's decision would be dropped and the node never due again.
        throw e;
      } catch (RuntimeException e) {
        // The nodes after this one are still due: put them back for the next tick, and let the
        // processing handler dead-letter this node's failure (it is retried at its next change).
        due.subList(i + 1, due.size()).forEach(n -> debouncer.wakeAt(n, now));
        throw new NodeFailure(due.get(i), e);
      }
    }
  }

  private void decide(String node, ClusterConfig config, Instant now, long wallClockMs) {
    Instant held = holds.heldUntil(node, now);
    if (held != null) { // an ingest re-publish is still sending its pods: decided at their end
      debouncer.wakeAt(node, held);
      return;
    }
    long started = System.nanoTime(); // duration metric only; never feeds a decision
    NodeBooking booking = bookings.load(node);
    NodeDecider.Decided decided = NodeDecider.decide(booking, config, namespaces::get, gangs.ceilings(node), now);
    Step step = decided.step();
    // Sent before saved: a decision that cannot be sent must not be remembered as sent.
    List<NodeDecision> records = step.decision()
        .map(d -> DecisionParts.split(d, settings.maxRecordBytes())).orElse(List.of());
    try {
      for (NodeDecision record : records) { // one, or the parts in order (DecisionParts)
        context.forward(new Record<>(node, record, wallClockMs), HeadroomTopology.DECISIONS_SINK);
      }
      if (decided.gangs() != null) {
        gangs.report(node, decided.gangs().report(), reports -> forwardReports(reports, wallClockMs));
      }
    } catch (TaskCorruptedException | TaskMigratedException e) {
      throw e; // the transaction aborts: Streams revives the task, which evaluates every node
    } catch (RuntimeException e) {
      // Dead-lettered, the node's booking as it was (no pending target for a patch nobody was
      // asked for) and due again when a sent and lost decision would be: a pending target is
      // presumed lost after backoffPeriod. Not at the next tick: a send that failed can fail again.
      debouncer.wakeAt(node, now.plus(config.backoffPeriod()));
      throw e;
    }
    bookings.save(step);
    step.decision().ifPresent(listener::decided);
    NodeDecider.nextWake(step.booking(), config, now).ifPresent(w -> debouncer.wakeAt(node, w));
    listener.evaluated(node, System.nanoTime() - started);
  }

  /**
   * The config in force, decoded from the global store only when a global table changed since the
   * last read ({@code version} is read before the store, so a write racing this read is picked up
   * at the next bump): punctuations come every tick, and a store read decodes the JSON each time.
   */
  private ClusterConfig config(long version) {
    if (configCache == null || version != configVersion) {
      ClusterConfig stored = configs.get(HeadroomKeys.CONFIG_NAME);
      UnaryOperator<ClusterConfig> view = settings.configView();
      configCache = view.apply(stored == null ? ClusterConfig.DEFAULTS : stored);
      configVersion = version;
    }
    return configCache;
  }
}
