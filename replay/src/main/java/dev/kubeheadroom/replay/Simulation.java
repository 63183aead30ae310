package dev.kubeheadroom.replay;

import dev.kubeheadroom.projection.Malformed;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code headroom simulate}: replays a Kubernetes watch log through the projection, the
 * production topology and the pure policy, with a simulated actuator that applies each decision
 * at once (as a resize would) and feeds the pod back. Deterministic: no broker, no cluster, no
 * wall clock; time is the log's {@code at}.
 */
public final class Simulation {
  /** How often progress is reported, in events. */
  public static final long PROGRESS_EVERY = 100_000;
  /** Upper bound on settle rounds after the log ends (each covers the max debounce delay). */
  static final int MAX_SETTLE_ROUNDS = 1_000;

  /** Where a run reports what it skipped and how far it got. */
  public interface Observer {
    Observer NONE = new Observer() {};

    default void warning(String message) {}

    default void progress(long events, long decisions) {}

    /** Every decision, in the order the topology took them. */
    default void decided(NodeDecision decision) {}
  }

  private final ClusterConfig fallbackConfig;
  private final Observer observer;
  private final TopologyHarness.Factory harness;

  /** @param fallbackConfig used until (or unless) the log carries a HeadroomConfig */
  public Simulation(ClusterConfig fallbackConfig, Observer observer) {
    this(fallbackConfig, observer, TopologyHarness.Factory.INLINE);
  }

  /** As above, running the topology with {@code harness} (tests and benchmarks compare the two). */
  public Simulation(ClusterConfig fallbackConfig, Observer observer, TopologyHarness.Factory harness) {
    this.fallbackConfig = fallbackConfig;
    this.observer = observer;
    this.harness = harness;
  }

  /**
   * Starts, on a thread of its own, what a run's first event would otherwise do on the main thread
   * before any decision: Jackson's mapping of the config the topology reads, introspected on first
   * use (a fifth of a short {@code simulate}'s main thread, measured). A process calls it before
   * parsing its command line, which then overlaps it; the mapping is the same whichever thread
   * makes it.
   */
  public static void prepareAhead() {
    Thread prepare = new Thread(() -> {
      try {
        JsonCodec.decode(JsonCodec.encode(ClusterConfig.DEFAULTS), ClusterConfig.class);
      } catch (RuntimeException e) {
        // only a head start: the run maps the config itself and reports what fails there
      }
    }, "headroom-prepare");
    prepare.setDaemon(true);
    prepare.start();
  }

  public ClusterReport run(Iterator<WatchLogItem> source) {
    return run(source, true);
  }

  /**
   * As {@link #run(Iterator)}; {@code projectAhead} false projects every object on the main
   * thread, as live ingest does (the yardstick tests hold the projection made ahead to).
   */
  public ClusterReport run(Iterator<WatchLogItem> source, boolean projectAhead) {
    // The log is read, parsed and each object projected by itself on a second thread: the same
    // items in the same order; the main thread does what needs the cluster's state.
    try (ReadAhead<PreparedItem> items = new ReadAhead<>(PreparedItem.mapped(source, projectAhead))) {
      return run(items);
    }
  }

  private ClusterReport run(ReadAhead<PreparedItem> items) {
    // Simulate always applies: dryRun in any config is ignored.
    TopologySettings settings = new TopologySettings(Topics.defaults(),
        TopologySettings.DEFAULT_TICK, c -> c.withDryRun(false));
    long events = 0;
    long malformed = 0;
    long decisions = 0;
    ReplayEngine engine = null;
    ClusterModel model = null;
    Consumer<String> warn = observer::warning;
    try {
      while (items.hasNext()) {
        PreparedItem prepared = items.next();
        WatchLogItem item = prepared.item();
        if (item instanceof Malformed bad) {
          malformed++;
          warn.accept("line " + bad.lineNumber() + ": " + bad.reason());
          continue;
        }
        WatchEvent event = (WatchEvent) item;
        if (engine == null) {
          engine = new ReplayEngine(settings, TopologyListener.NONE, event.at(), harness);
          engine.config(fallbackConfig);
          model = new ClusterModel(engine, warn);
        }
        engine.advanceTo(event.at());
        decisions += applyDecisions(engine, model);
        try {
          model.apply(event, prepared);
        } catch (ProjectionException e) {
          // An object the API server could not have stored (e.g. an unparseable quantity).
          malformed++;
          warn.accept("line " + event.lineNumber() + ": " + e.getMessage());
          continue;
        }
        events++;
        if (events % PROGRESS_EVERY == 0) {
          observer.progress(events, decisions);
        }
      }
      if (engine == null) {
        return new ClusterReport(List.of(), List.of(), new ClusterReport.Summary(0, malformed, 0, 0));
      }
      decisions += settle(engine, model);
      return report(engine, model, new ClusterReport.Summary(events, malformed, decisions, model.patches()));
    } finally {
      if (engine != null) {
        engine.close();
      }
    }
  }

  private long applyDecisions(ReplayEngine engine, ClusterModel model) {
    List<NodeDecision> ds = engine.drainDecisions();
    for (NodeDecision d : ds) {
      observer.decided(d);
      for (PodChange change : d.changes()) {
        model.resize(change);
      }
    }
    return ds.size();
  }

  /** After the last line the clock runs on until a whole max-delay window decides nothing. */
  private long settle(ReplayEngine engine, ClusterModel model) {
    ClusterConfig config = engine.storedConfig();
    Duration round = config.maxDebounceDelay().plus(config.debouncePeriod()).plus(engine.tick());
    long total = 0;
    for (int i = 0; i < MAX_SETTLE_ROUNDS; i++) {
      engine.advance(round);
      long n = applyDecisions(engine, model);
      total += n;
      if (n == 0) {
        engine.advance(round); // feedback from the last round must also come to rest
        long after = applyDecisions(engine, model);
        total += after;
        if (after == 0) {
          break;
        }
      }
    }
    return total;
  }

  private static ClusterReport report(ReplayEngine engine, ClusterModel model, ClusterReport.Summary summary) {
    List<NodeBooking> bookings = engine.nodeNames().stream().map(engine::booking).toList();
    return ClusterReports.build(bookings, model.pods(), engine::namespace,
        engine.storedConfig().withDryRun(false), engine.now(), summary);
  }
}
