package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.ContainerTarget;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.GangRatio;
import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.NodeStats;
import dev.kubeheadroom.policy.PodColumns;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PodPlan;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.Saturating;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.policy.UniformCeiling;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.Tenancy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns a node's booking into a decision: eligibility → policy inputs → the pure policy → per-pod
 * container plans → a {@link NodeDecision} listing only the pods whose limits change. Pure: the
 * time is passed in (the punctuator's clock), the config and namespaces too.
 */
public final class NodeDecider {
  private NodeDecider() {}

  /** The policy's view of one pod, with the containers it would split a target across. */
  public record PodView(PodEntry entry, PodInput input, List<ContainerInput> containers, Ineligibility whyNot) {}

  /**
   * One decision of a node: the step, and the node's gangs as it saw them (what it reports to each
   * gang); {@code gangs} is null when the node could not be decided (no snapshot yet).
   */
  public record Decided(Step step, GangCeilings gangs) {}

  /** Decides one node at {@code now} with no gang ceilings from elsewhere. */
  public static Step decide(
      NodeBooking booking,
      ClusterConfig config,
      Function<String, NamespaceInfo> namespaces,
      Instant now) {
    return decide(booking, config, namespaces, Map.of(), now).step();
  }

  /**
   * Decides one node at {@code now}; the returned step carries the decision if anything changes.
   * {@code ceilings}: per gang, the lowest ratio its members on other nodes reported (§11.6).
   */
  public static Decided decide(
      NodeBooking booking,
      ClusterConfig config,
      Function<String, NamespaceInfo> namespaces,
      Map<String, CeilingRatio> ceilings,
      Instant now) {
    if (booking.snapshot() == null) {
      // allocatable unknown until the node's snapshot arrives
      return new Decided(Step.unchanged(booking), null);
    }
    // The node's pool is read from its labels at every decision, so a relabelled node moves pools
    // at its next decision (docs/design/headroom-design.txt §11.4).
    NodePool pool = config.poolFor(booking.snapshot().labels()).orElse(null);
    PolicyConfig policyConfig = config.forPool(pool).toPolicyConfig();
    PodRows rows = PodRows.lend(booking, config, namespaces, now);
    try {
      return decide(booking, config, ceilings, now, pool, policyConfig, rows);
    } finally {
      rows.giveBack();
    }
  }

  private static Decided decide(NodeBooking booking, ClusterConfig config, Map<String, CeilingRatio> ceilings,
      Instant now, NodePool pool, PolicyConfig policyConfig, PodRows rows) {
    PodColumns columns = rows.columns();
    List<Tenant> tenants = config.tenancy() == Tenancy.NAMESPACES ? rows.tenants() : null;
    NodeStats stats = tenants == null
        ? SlackPolicy.computeNode(booking.snapshot().allocatableMilli(), columns, policyConfig)
        : hierarchical(booking.snapshot().allocatableMilli(), rows, tenants, policyConfig);
    GangCeilings gangs = GangCeilings.of(rows, config.gangOwnerKinds(), ceilings);

    PodEdits pods = new PodEdits(rows);
    dropStalePending(rows, pods, config, now);

    List<PodChange> changes = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (!columns.managed(i)) {
        continue;
      }
      GangRatio ceiling = gangs.hasCeilings() ? gangs.ceilingOf(rows.uid(i)) : null;
      if (ceiling == null && !columns.apply(i)) {
        continue; // most pods: no records made
      }
      PodInput input = rows.input(i);
      Decision decision = columns.decision(i, input.key());
      if (ceiling != null) {
        decision = UniformCeiling.apply(input, decision, ceiling, policyConfig);
      }
      if (!decision.apply()) {
        continue;
      }
      PodPlan plan = PodPlanner.plan(decision, input, rows.containers(i), policyConfig,
          enforcedCap(rows.entry(i).pod(), input));
      if (!plan.apply()) {
        continue;
      }
      PodEntry entry = rows.entry(i);
      PodSnapshot pod = entry.pod();
      changes.add(new PodChange(pod.uid(), pod.namespace(), pod.name(), plan.reason().wireName(),
          input.currentLimitMilli(), plan.targetLimitMilli(), ContainerChange.of(plan.containers())));
      pods.put(i, pods.get(i).withPending(
          new Pending(plan.targetLimitMilli(), emitted(plan, entry.pending(), config), now, config.dryRun())));
    }
    Set<String> touched = pods.uids();
    NodeBooking next = touched.isEmpty() ? booking
        : new NodeBooking(booking.node(), booking.snapshot(), booking.table().replacing(pods.byUid()));
    if (changes.isEmpty()) {
      return new Decided(new Step(next, touched, false, false, Optional.empty()), gangs);
    }
    NodeDecision decision = new NodeDecision(booking.node(), now, config.generation(),
        tenants == null ? SlackPolicy.NAME : HierarchicalPolicy.NAME, config.dryRun(),
        DecisionConfig.of(policyConfig), DecisionStats.of(stats),
        decisionInputs(rows, tenants, gangs), changes) // policy types → the topic's records, here at the boundary
        .inPool(pool == null ? null : pool.name());
    return new Decided(new Step(next, touched, false, false, Optional.of(decision)), gangs);
  }

  /** The hierarchical policy over the rows (its record entry point), its verdicts put in the rows' columns. */
  private static NodeStats hierarchical(long allocatableMilli, PodRows rows, List<Tenant> tenants,
      PolicyConfig config) {
    NodeResult result = HierarchicalPolicy.computeNode(allocatableMilli, rows.inputs(), tenants, config);
    PodColumns columns = rows.columns();
    int next = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (columns.managed(i)) {
        columns.setDecision(i, result.decisions().get(next++)); // one per managed pod, input order
      }
    }
    return result.stats();
  }

  /**
   * The container limits a change emits, and those of an earlier target still unconfirmed in the
   * same mode, which it keeps waiting for ({@link Pending} copies the map: a one-container change,
   * most of them, gives it an immutable map it keeps as it is).
   */
  private static Map<String, Long> emitted(PodPlan plan, Pending pending, ClusterConfig config) {
    boolean waiting = pending != null && pending.dryRun() == config.dryRun();
    if (!waiting && plan.containers().size() == 1) {
      ContainerTarget only = plan.containers().get(0);
      return Map.of(only.name(), only.toMilli());
    }
    Map<String, Long> emitted = new LinkedHashMap<>();
    for (ContainerTarget t : plan.containers()) {
      emitted.put(t.name(), t.toMilli());
    }
    if (waiting) {
      pending.containers().forEach(emitted::putIfAbsent); // still unconfirmed, keep waiting
    }
    return emitted;
  }

  private static List<DecisionInput> decisionInputs(PodRows rows, List<Tenant> tenants, GangCeilings gangs) {
    PodColumns columns = rows.columns();
    List<DecisionInput> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      String uid = rows.uid(i);
      Tenant tenant = tenants == null ? null : tenants.get(i);
      DecisionInput recorded = new DecisionInput(uid, columns.requestMilli(i), columns.currentLimitMilli(i),
          columns.managed(i), columns.userCapMilli(i), tenant == null ? null : tenant.name(),
          tenant == null ? 0 : tenant.weightMultiplier());
      String gang = gangs.gangOf(uid);
      out.add(gang == null ? recorded : recorded.inGang(gang, CeilingRatio.of(gangs.ceilingOf(uid))));
    }
    return out;
  }

  /** Every live pod as the policy sees it, in uid order. */
  public static Map<String, PodView> views(
      NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Instant now) {
    PodRows rows = PodRows.of(booking, config, namespaces, now);
    Map<String, PodView> views = new LinkedHashMap<>(rows.size() * 4 / 3 + 1);
    for (int i = 0; i < rows.size(); i++) {
      views.put(rows.uid(i), new PodView(rows.entry(i), rows.input(i), rows.containers(i), rows.whyNot(i)));
    }
    return views;
  }

  /**
   * A pending target still stands when it was emitted in the current mode (a dry-run target is
   * not in flight once enforcement starts) and, if real, is younger than the backoff period (an
   * unconfirmed patch that old is presumed lost, so the pod is recomputed from its own limits).
   */
  static Pending usablePending(PodEntry entry, ClusterConfig config, Instant now) {
    Pending p = entry.pending();
    if (p == null || p.dryRun() != config.dryRun()) {
      return null;
    }
    if (!p.dryRun() && !now.isBefore(p.at().plus(config.backoffPeriod()))) {
      return null;
    }
    return p;
  }

  /**
   * This decision's edits of the booking's pods, by row: kept apart and the table copied once at
   * the end, only when there were any, as most evaluations change no pod.
   */
  private static final class PodEdits {
    private final PodRows rows;
    private PodEntry[] edited; // by row; null until the first edit
    private int count;

    PodEdits(PodRows rows) {
      this.rows = rows;
    }

    PodEntry get(int i) {
      PodEntry entry = edited == null ? null : edited[i];
      return entry != null ? entry : rows.entry(i);
    }

    void put(int i, PodEntry entry) {
      if (edited == null) {
        edited = new PodEntry[rows.size()];
      }
      if (edited[i] == null) {
        count++;
      }
      edited[i] = entry;
    }

    /** The edited pods' uids. */
    Set<String> uids() {
      if (count <= 1) {
        return count == 0 ? Set.of() : Set.of(rows.uid(first()));
      }
      Set<String> uids = new HashSet<>();
      for (int i = 0; i < edited.length; i++) {
        if (edited[i] != null) {
          uids.add(rows.uid(i));
        }
      }
      return uids;
    }

    /** The edited entries by uid (only after an edit). */
    Map<String, PodEntry> byUid() {
      if (count == 1) {
        int i = first();
        return Map.of(rows.uid(i), edited[i]);
      }
      Map<String, PodEntry> byUid = new HashMap<>();
      for (int i = 0; i < edited.length; i++) {
        if (edited[i] != null) {
          byUid.put(rows.uid(i), edited[i]);
        }
      }
      return byUid;
    }

    private int first() {
      int i = 0;
      while (edited[i] == null) {
        i++;
      }
      return i;
    }
  }

  private static void dropStalePending(PodRows rows, PodEdits pods, ClusterConfig config, Instant now) {
    for (int i = 0; i < rows.size(); i++) {
      PodEntry entry = rows.entry(i);
      if (entry.pending() != null
          && (rows.whyNot(i) != null || usablePending(entry, config, now) == null)) {
        pods.put(i, entry.withPending(null));
      }
    }
  }

  /**
   * The pod's cap: its max-cpu annotation ({@code maxCpuMilli}) and its namespace's LimitRange caps, which the API server
   * enforces on every resize: the largest target whose pro-rata split keeps every container within
   * its container max and limit/request ratio, and the pod's summed limits within the pod max
   * ({@link LimitRangeCaps#podTargetCapMilli}; {@code caps}: null when the namespace is not known,
   * {@code fixedMilli}: {@link #fixedLimitsMilli} of the containers).
   */
  /**
   * The part of a pod's cap the API server enforces (PodPlanner): none when its {@code max-cpu}
   * annotation is the binding cap (Headroom's own; a LimitRange equal to it is not told apart, and
   * a resize it refuses backs off), else the whole cap (a LimitRange's).
   */
  public static long enforcedCap(PodSnapshot pod, PodInput input) {
    return pod.maxCpuMilli() > 0 && input.userCapMilli() == pod.maxCpuMilli() ? 0 : input.userCapMilli();
  }

  static long userCap(long maxCpuMilli, LimitRangeCaps caps, List<ContainerInput> containers, long fixedMilli) {
    if (caps == null) {
      return maxCpuMilli;
    }
    return LimitRangeCaps.tighter(maxCpuMilli, caps.podTargetCapMilli(containers, fixedMilli));
  }

  /**
   * What LimitRanger adds to the pod's summed limit beyond the target Headroom splits: the limits
   * of zero-request containers (left untouched), and for an init container that starts after a
   * sidecar, its own limit (it runs beside the sidecars before it, all within the target), so the
   * largest such init limit bounds that term.
   */
  static long fixedLimitsMilli(PodSnapshot pod, List<ContainerInput> containers) {
    long fixed = 0;
    for (ContainerInput c : containers) {
      if (c.requestMilli() == 0) {
        fixed = Saturating.add(fixed, c.currentLimitMilli());
      }
    }
    boolean sidecarSeen = false;
    long initBesideSidecars = 0;
    for (ContainerSnapshot c : pod.containers()) {
      if (c.kind() == ContainerKind.SIDECAR) {
        sidecarSeen = true;
      } else if (c.kind() == ContainerKind.INIT && sidecarSeen) {
        initBesideSidecars = Math.max(initBesideSidecars, c.cpuLimitMilli());
      }
    }
    return Saturating.add(fixed, initBesideSidecars);
  }

  /** When this booking next needs a look without any new event: a backoff or a pending expiry. */
  public static Optional<Instant> nextWake(NodeBooking booking, ClusterConfig config, Instant now) {
    Instant wake = null;
    for (PodEntry entry : booking.pods().values()) {
      Instant backoffEnds = RefusalBackoff.until(entry, config.backoffPeriod());
      if (backoffEnds != null) {
        wake = earliestAfter(wake, backoffEnds, now);
      }
      Pending p = entry.pending();
      if (p != null && !p.dryRun()) {
        wake = earliestAfter(wake, p.at().plus(config.backoffPeriod()), now);
      }
    }
    return Optional.ofNullable(wake);
  }

  private static Instant earliestAfter(Instant current, Instant candidate, Instant now) {
    if (!candidate.isAfter(now)) {
      return current;
    }
    return current == null || candidate.isBefore(current) ? candidate : current;
  }
}
