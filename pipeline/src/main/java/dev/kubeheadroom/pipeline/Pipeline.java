package dev.kubeheadroom.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one composition root: starts the given stages in order, answers readiness, watches for
 * failures ({@link #supervise}, by its {@link RestartPolicy}), stops and starts single stages, and
 * closes them in reverse order. {@code headroom run}, each stage command, {@code headroom demo}
 * and the live-pipeline tests all start their stages through it.
 */
public final class Pipeline implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
  /** Restarts of a stage by {@link #supervise}, tagged {@code stage}. */
  public static final String RESTARTS = "headroom.stage.restarts";

  private final StageContext context;
  private final RestartPolicy policy;
  private final Map<String, Slot> slots = new LinkedHashMap<>();

  private Pipeline(StageContext context, RestartPolicy policy, List<StageSpec> specs) {
    this.context = context;
    this.policy = policy;
    for (StageSpec spec : specs) {
      if (slots.putIfAbsent(spec.name(), new Slot(spec)) != null) {
        throw new IllegalArgumentException("two stages named " + spec.name());
      }
    }
  }

  /** Starts {@code specs} in order; a stage that fails is left to the caller (no restarts). */
  public static Pipeline start(StageContext context, List<StageSpec> specs) {
    return start(context, RestartPolicy.EXIT, specs);
  }

  /**
   * Starts {@code specs} in order. If one cannot start, those started are closed and the error is
   * thrown.
   */
  public static Pipeline start(StageContext context, RestartPolicy policy, List<StageSpec> specs) {
    Pipeline pipeline = new Pipeline(context, policy, specs);
    try {
      pipeline.slots.keySet().forEach(pipeline::start);
    } catch (RuntimeException | Error e) {
      pipeline.close();
      throw e;
    }
    return pipeline;
  }

  /** The stage names in start order. */
  public List<String> names() {
    return List.copyOf(slots.keySet());
  }

  /** Every stage runs and is ready. */
  public boolean ready() {
    return slots.values().stream().allMatch(Slot::ready);
  }

  /** The named stage runs and is ready. */
  public boolean ready(String name) {
    return slot(name).ready();
  }

  /** The named stage while it runs; empty while stopped or waiting to restart. */
  public Optional<Stage> stage(String name) {
    return Optional.ofNullable(slot(name).stage);
  }

  /** Starts the named stage if it is not running. */
  public synchronized void start(String name) {
    Slot slot = slot(name);
    if (slot.stage != null) {
      return;
    }
    Set<Meter.Id> before = ids(context.registry());
    slot.stage = slot.spec.start(context);
    slot.restartAt = null;
    // the stage's own gauges (headroom.<stage>.*) point at this instance: a restarted one must
    // register its own, not find these and report the closed instance's values
    String prefix = "headroom." + name + ".";
    slot.gauges = ids(context.registry()).stream().filter(id -> !before.contains(id))
        .filter(id -> id.getType() == Meter.Type.GAUGE && id.getName().startsWith(prefix))
        .collect(Collectors.toSet());
  }

  /** Closes the named stage (the others keep running); {@link #start(String)} starts it again. */
  public synchronized void stop(String name) {
    Slot slot = slot(name);
    Stage stage = slot.stage;
    slot.stage = null;
    if (stage != null) {
      closeQuietly(stage);
      slot.gauges.forEach(context.registry()::remove);
      slot.gauges = Set.of();
    }
  }

  /** The first stage that failed and is still running, if any (without acting on it). */
  public Optional<StageFailure> failure() {
    for (Slot slot : slots.values()) {
      Stage stage = slot.stage;
      Optional<Throwable> failed = stage == null ? Optional.empty() : stage.failure();
      if (failed.isPresent()) {
        return Optional.of(new StageFailure(slot.spec.name(), failed.get()));
      }
    }
    return Optional.empty();
  }

  /**
   * Acts on failed stages by the {@link RestartPolicy}: closes each, and starts it again once its
   * backoff has passed. Returns the failure to give up on (the caller exits) when a stage has
   * used up its restarts, or the policy allows none.
   */
  public synchronized Optional<StageFailure> supervise() {
    Instant now = context.clock().instant();
    for (Slot slot : slots.values()) {
      String name = slot.spec.name();
      Stage stage = slot.stage;
      Optional<Throwable> failed = stage == null ? Optional.empty() : stage.failure();
      if (failed.isPresent()) {
        stop(name);
        Optional<StageFailure> giveUp = failed(slot, failed.get(), now);
        if (giveUp.isPresent()) {
          return giveUp;
        }
      }
      if (slot.stage == null && slot.restartAt != null && !now.isBefore(slot.restartAt)) {
        try {
          start(name);
          Counter.builder(RESTARTS).tag("stage", name).description("Stages restarted in-process after a failure")
              .register(context.registry()).increment();
          LOG.info("Stage {} restarted", name);
        } catch (RuntimeException e) {
          Optional<StageFailure> giveUp = failed(slot, e, now);
          if (giveUp.isPresent()) {
            return giveUp;
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Schedules a restart, or gives up when the policy's restarts are used up. */
  private Optional<StageFailure> failed(Slot slot, Throwable cause, Instant now) {
    String name = slot.spec.name();
    while (!slot.restarts.isEmpty() && slot.restarts.peekFirst().isBefore(now.minus(policy.window()))) {
      slot.restarts.removeFirst();
    }
    if (slot.restarts.size() >= policy.maxRestarts()) {
      slot.restartAt = null;
      if (policy.maxRestarts() > 0) {
        LOG.error("Stage {} failed after {} restarts within {}; giving up", name, slot.restarts.size(),
            policy.window(), cause);
      } else {
        LOG.error("Stage {} failed", name, cause);
      }
      return Optional.of(new StageFailure(name, cause));
    }
    slot.restarts.addLast(now);
    Duration wait = policy.backoff(slot.restarts.size());
    slot.restartAt = now.plus(wait);
    LOG.error("Stage {} failed; restarting it in {} ms (restart {} of at most {} within {})", name,
        wait.toMillis(), slot.restarts.size(), policy.maxRestarts(), policy.window(), cause);
    return Optional.empty();
  }

  /**
   * Waits until every stage is ready; throws {@link IllegalStateException} naming each stage's
   * state when it takes longer than {@code timeout} or a stage fails meanwhile.
   */
  public void awaitReady(Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (!ready()) {
      Optional<StageFailure> failed = failure();
      if (failed.isPresent()) {
        throw new IllegalStateException("stage " + failed.get().stage() + " failed while starting: "
            + failed.get().cause(), failed.get().cause());
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the pipeline did not come up within " + timeout + " (" + describe() + ")");
      }
      Thread.sleep(50); // the stages expose readiness flags, not events
    }
  }

  /** Each stage's state, e.g. {@code topology ready, ingest not ready, actuator stopped}. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    slots.forEach((name, slot) -> parts.add(name + " " + (slot.stage == null ? "stopped"
        : slot.stage.ready() ? "ready" : "not ready")));
    return String.join(", ", parts);
  }

  /** Closes every stage, last started first. */
  @Override
  public synchronized void close() {
    List<String> names = new ArrayList<>(slots.keySet());
    for (int i = names.size() - 1; i >= 0; i--) {
      stop(names.get(i));
      slots.get(names.get(i)).restartAt = null;
    }
  }

  private Slot slot(String name) {
    Slot slot = slots.get(name);
    if (slot == null) {
      throw new IllegalArgumentException("no stage " + name + " in this pipeline (" + slots.keySet() + ")");
    }
    return slot;
  }

  private static Set<Meter.Id> ids(MeterRegistry registry) {
    Set<Meter.Id> ids = new HashSet<>();
    registry.forEachMeter(m -> ids.add(m.getId()));
    return ids;
  }

  private static void closeQuietly(Stage stage) {
    try {
      stage.close();
    } catch (RuntimeException e) {
      LOG.warn("Closing stage {} failed: {}", stage.name(), e.toString());
    }
  }

  /** One stage's place in the pipeline: its spec, the running instance, its restart history. */
  private static final class Slot {
    final StageSpec spec;
    volatile Stage stage;
    Set<Meter.Id> gauges = Set.of();
    final Deque<Instant> restarts = new ArrayDeque<>();
    Instant restartAt;

    Slot(StageSpec spec) {
      this.spec = spec;
    }

    boolean ready() {
      Stage s = stage;
      return s != null && s.ready();
    }
  }
}
