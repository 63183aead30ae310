package dev.kubeheadroom.installed;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Measures one fault: from the API double's journal (every accepted resize with its body) against
 * the decisions topic, and the policy applied to the final cluster state ({@link PolicyOracle}).
 */
final class FaultMeasure {
  private final Cluster cluster;
  private final BrokerProcess broker;
  private final ReplicaKeeper keeper;
  private final PolicyOracle oracle;
  private final String decisionsTopic;
  private final Duration convergeBound;

  FaultMeasure(Cluster cluster, BrokerProcess broker, ReplicaKeeper keeper, PolicyOracle oracle,
      String decisionsTopic, Duration convergeBound) {
    this.cluster = cluster;
    this.broker = broker;
    this.keeper = keeper;
    this.oracle = oracle;
    this.decisionsTopic = decisionsTopic;
    this.convergeBound = convergeBound;
  }

  /**
   * What a scenario reports when it has healed the fault. {@code later}: pods left out of the
   * row's convergence because a documented wait holds them (a refusal backoff: unmanaged while it
   * runs, so their neighbours' targets are those without them), awaited once the row has
   * converged, each within its stated bound, so that the next scenario starts from a converged
   * cluster.
   */
  record Healed(Instant at, int injected, int badInputs, boolean countSuperseded, Set<String> ignored,
      List<String> problems, List<Later> later) {
    Healed withProblems(List<String> more) {
      List<String> all = new ArrayList<>(problems);
      all.addAll(more);
      return new Healed(at, injected, badInputs, countSuperseded, ignored, all, later);
    }

    /** {@code pod} (one of the ignored) awaited after the row, up to {@code bound} from healing, for {@code why}. */
    Healed awaitingLater(String pod, Duration bound, String why) {
      List<Later> all = new ArrayList<>(later);
      all.add(new Later(pod, bound, why));
      return new Healed(at, injected, badInputs, countSuperseded, ignored, problems, all);
    }
  }

  /** A pod held by a documented wait: converged by {@code bound} after healing, or a problem. */
  record Later(String pod, Duration bound, String why) {}

  /** One scenario's span: started with the tenants already at work, ended by {@link #healed}. */
  static final class Window {
    final Instant from;
    final Map<Integer, Long> decisionsAtStart;
    final int restartsAtStart;
    private final FaultMeasure measure;
    private final Churn churn;

    private Window(FaultMeasure measure, Churn churn) {
      this.measure = measure;
      this.churn = churn;
      this.decisionsAtStart = DecisionLog.ends(measure.decisions());
      this.restartsAtStart = measure.keeper.restarts().size();
      this.from = Instant.now();
    }

    /** Starts the tenants' changes and lets a few land before the fault: mid-stream. */
    static Window start(FaultMeasure measure, Churn churn, Duration period) {
      Window w = new Window(measure, churn);
      churn.start(period);
      InstalledTier.sleep(Duration.ofSeconds(2));
      return w;
    }

    /** The fault is over: the tenants stop, the clock for convergence starts. */
    Healed healed(int injected, int badInputs, Set<String> ignored) {
      Instant at = Instant.now();
      churn.close();
      return new Healed(at, injected, badInputs, false, ignored, List.of(), List.of());
    }

    /** As {@link #healed}, the bad inputs being the decisions of this window superseded by a later one. */
    Healed healedCountingSuperseded(int injected, Set<String> ignored) {
      Instant at = Instant.now();
      churn.close();
      return new Healed(at, injected, 0, true, ignored, List.of(), List.of());
    }

    /** Enforcing pod changes decided since the window started. */
    int enforcedSinceStart() {
      return (int) measure.decisions().stream().filter(c -> !c.dryRun() && c.after(decisionsAtStart)).count();
    }
  }

  FaultRow row(String fault, String mode, Window window, Healed healed) {
    List<String> problems = new ArrayList<>(healed.problems());
    Optional<Duration> converge = converge(healed, problems);
    InstalledTier.sleep(Duration.ofSeconds(3)); // the last resizes' journal entries and outcomes land
    if (converge.isPresent()) {
      // and the limits stay there, the tenants idle: no late or replayed decision moves them
      off(healed).forEach((pod, what) ->
          problems.add("moved after converging: " + pod + " " + what));
    }
    List<String> notes = new ArrayList<>();
    healed.later().forEach(later -> settle(later, healed.at(), problems, notes));
    List<DecisionLog.Change> decisions = decisions();
    // A pod whose last enforcing decision was not applied is a loss only if the policy, on the
    // node as it ends, would still change its limit. Otherwise a later state of the node made the
    // decision moot: deadbands make that path-dependent (from 1560m a target of 1700m is within
    // the 10 % grow band, so no new decision is emitted), and a decision the actuator may not
    // apply (dryRun flipped on, too old) is answered and re-decided from the pod's own limit.
    Map<String, String> off = off(healed);
    int lost = 0;
    for (DecisionLog.Change last : DecisionLog.latestEnforced(decisions).values()) {
      if (!last.after(window.decisionsAtStart) || healed.ignored().contains(last.pod())) {
        continue;
      }
      String[] nsName = last.pod().split("/", 2);
      var pod = cluster.api().pod(nsName[0], nsName[1]).filter(p -> p.getMetadata().getUid().equals(last.uid()));
      if (pod.isEmpty()) {
        continue; // deleted since: nothing to apply
      }
      long limit = pod.get().getSpec().getContainers().stream()
          .mapToLong(c -> PolicyOracle.milli(c.getResources().getLimits(), "cpu")).sum();
      if (limit != last.targetMilli() && off.containsKey(last.pod())) {
        lost++;
        problems.add("lost: " + last.pod() + " decided " + last.targetMilli() + "m, has " + limit + "m, the policy wants "
            + off.get(last.pod()));
      } else if (limit != last.targetMilli()) {
        notes.add("moot, not lost: " + last.pod() + " decided " + last.targetMilli() + "m, has " + limit
            + "m, a limit the policy keeps on the node as it ended");
      }
    }
    belowRequest(healed.ignored()).forEach(p -> problems.add("limit below request: " + p));
    List<String> duplicates = new PatchLog(cluster.api().requests().entries()).duplicatesSince(window.from);
    duplicates.forEach(d -> problems.add("duplicate: " + d));
    int uncommitted = uncommittedSince(decisions, window);
    if (uncommitted > 0) {
      // a topology that decides but cannot commit (fenced, its transactions aborted) looks busy
      // and changes nothing: what the actuator never saw is worth naming next to the pods off
      notes.add(uncommitted + " pod changes decided in aborted transactions (never seen by the actuator)");
    }
    int badInputs = healed.countSuperseded() ? superseded(decisions, window) : healed.badInputs();
    List<String> restarts = keeper.restarts();
    return new FaultRow(fault, mode, healed.injected(), lost, duplicates.size(), converge, badInputs,
        restarts.size() - window.restartsAtStart, problems, notes);
  }

  /**
   * The pods the policy would still change, the row's ignored pods left out. A pod held by a
   * documented wait ({@link Healed#later}: a refusal backoff) is unmanaged while it waits, and
   * managed again once it ends: the cluster is converged under either.
   */
  private Map<String, String> off(Healed healed) {
    Map<String, String> managed = oracle.unconverged(healed.ignored());
    if (managed.isEmpty() || healed.later().isEmpty()) {
      return managed;
    }
    Set<String> waiting = new HashSet<>();
    healed.later().forEach(later -> waiting.add(later.pod()));
    return oracle.unconverged(healed.ignored(), waiting);
  }

  /**
   * Waits for a pod the row left out until the policy would change its limit no more: a wait the
   * product documents (a refusal backoff) ends within the next scenario otherwise, and that
   * scenario's convergence would measure it.
   */
  private void settle(Later later, Instant healedAt, List<String> problems, List<String> notes) {
    Instant deadline = healedAt.plus(later.bound());
    while (Instant.now().isBefore(deadline)) {
      if (oracle.unconverged(Set.of()).isEmpty()) { // the pod and, managed again, its neighbours
        notes.add(later.pod() + " converged " + Duration.between(healedAt, Instant.now()).toSeconds()
            + " s after healing, at " + later.why() + " (bound " + later.bound().toSeconds() + " s)");
        return;
      }
      InstalledTier.sleep(Duration.ofMillis(500));
    }
    problems.add("unconverged " + later.bound().toSeconds() + " s after healing, past " + later.why() + " of "
        + later.pod() + ": " + oracle.unconverged(Set.of()));
  }

  /** How often a row that has not converged yet reports where it stands. */
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

  /** From healed until the policy would change no limit; empty (and the pods off) past the bound. */
  private Optional<Duration> converge(Healed healed, List<String> problems) {
    Instant deadline = healed.at().plus(convergeBound);
    Map<String, String> off = Map.of();
    Instant nextReport = healed.at().plus(PROGRESS_EVERY);
    while (Instant.now().isBefore(deadline)) {
      off = off(healed);
      if (off.isEmpty()) {
        return Optional.of(Duration.between(healed.at(), Instant.now()));
      }
      if (Instant.now().isAfter(nextReport)) {
        // a slow row's timeline: how many pods are still off, and whether resizes are going out
        FaultSuite.progress("  " + Duration.between(healed.at(), Instant.now()).toSeconds() + " s after healing: "
            + off.size() + " pods off (" + off.entrySet().stream().limit(3).map(e -> e.getKey() + " " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", ")) + (off.size() > 3 ? ", …" : "") + "), "
            + cluster.api().requests().countSince(healed.at(), dev.kubeheadroom.kubedouble.RequestMatcher.resize())
            + " resizes since healing");
        nextReport = nextReport.plus(PROGRESS_EVERY);
      }
      InstalledTier.sleep(Duration.ofMillis(250));
    }
    off.forEach((pod, what) -> problems.add("unconverged after " + convergeBound.toSeconds() + " s: " + pod + " " + what));
    return Optional.empty();
  }

  /** Pods of the oracle's namespace with a CPU limit below their CPU request (never valid: a broken target). */
  private List<String> belowRequest(Set<String> ignored) {
    List<String> below = new ArrayList<>();
    for (var pod : cluster.api().pods()) {
      String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
      if (!oracle.namespace().equals(pod.getMetadata().getNamespace()) || ignored.contains(key)) {
        continue;
      }
      for (var c : pod.getSpec().getContainers()) {
        var res = c.getResources();
        long request = res == null ? 0 : PolicyOracle.milli(res.getRequests(), "cpu");
        long limit = res == null ? 0 : PolicyOracle.milli(res.getLimits(), "cpu");
        if (limit > 0 && limit < request) {
          below.add(key + " " + c.getName() + " " + limit + "m < " + request + "m");
        }
      }
    }
    return below;
  }

  /** Enforcing changes of this window a later change of the same pod superseded (stale when met). */
  private static int superseded(List<DecisionLog.Change> decisions, Window window) {
    Set<String> seen = new HashSet<>();
    int stale = 0;
    for (int i = decisions.size() - 1; i >= 0; i--) {
      DecisionLog.Change c = decisions.get(i);
      if (!c.dryRun() && !seen.add(c.pod()) && c.after(window.decisionsAtStart)) {
        stale++;
      }
    }
    return stale;
  }

  /** The committed decisions (what the actuator, reading read_committed, sees). */
  List<DecisionLog.Change> decisions() {
    return DecisionLog.read(broker.bootstrapServers(), decisionsTopic);
  }

  /** Pod changes of this window written but not committed: {@code committed} subtracted from all written. */
  private int uncommittedSince(List<DecisionLog.Change> committed, Window window) {
    long written = DecisionLog.read(broker.bootstrapServers(), decisionsTopic, false).stream()
        .filter(c -> c.after(window.decisionsAtStart)).count();
    return (int) (written - committed.stream().filter(c -> c.after(window.decisionsAtStart)).count());
  }
}
