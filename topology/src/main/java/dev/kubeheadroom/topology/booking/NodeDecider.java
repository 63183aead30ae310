package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.ContainerTarget;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PodPlan;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.Saturating;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.Tenant;
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
    Map<String, PodView> views = views(booking, config, namespaces, now);
    List<PodInput> inputs = new ArrayList<>(views.size());
    for (PodView view : views.values()) {
      inputs.add(view.input());
    }
    List<Tenant> tenants = config.tenancy() == Tenancy.NAMESPACES ? tenants(views, namespaces) : null;
    NodeResult result = tenants == null
        ? SlackPolicy.computeNode(booking.snapshot().allocatableMilli(), inputs, policyConfig)
        : HierarchicalPolicy.computeNode(booking.snapshot().allocatableMilli(), inputs, tenants, policyConfig);
    GangCeilings gangs = GangCeilings.of(views, result.decisions(), config.gangOwnerKinds(), ceilings);

    PodEdits pods = new PodEdits(booking.table());
    Set<String> touched = new HashSet<>(4);
    dropStalePending(views, pods, touched, config, now);

    List<PodChange> changes = new ArrayList<>();
    for (Decision own : result.decisions()) {
      PodView view = views.get(own.key());
      Decision decision = gangs.apply(view, own, policyConfig);
      if (!decision.apply()) {
        continue;
      }
      PodPlan plan = PodPlanner.plan(decision, view.input(), view.containers(), policyConfig);
      if (!plan.apply()) {
        continue;
      }
      PodSnapshot pod = view.entry().pod();
      changes.add(new PodChange(pod.uid(), pod.namespace(), pod.name(), plan.reason().wireName(),
          view.input().currentLimitMilli(), plan.targetLimitMilli(), ContainerChange.of(plan.containers())));
      Map<String, Long> emitted = new LinkedHashMap<>();
      for (ContainerTarget t : plan.containers()) {
        emitted.put(t.name(), t.toMilli());
      }
      Pending pending = view.entry().pending();
      if (pending != null && pending.dryRun() == config.dryRun()) {
        pending.containers().forEach(emitted::putIfAbsent); // still unconfirmed, keep waiting
      }
      pods.put(pod.uid(), pods.get(pod.uid()).withPending(
          new Pending(plan.targetLimitMilli(), emitted, now, config.dryRun())));
      touched.add(pod.uid());
    }
    NodeBooking next = touched.isEmpty() ? booking
        : new NodeBooking(booking.node(), booking.snapshot(), pods.edited());
    if (changes.isEmpty()) {
      return new Decided(new Step(next, touched, false, false, Optional.empty()), gangs);
    }
    NodeDecision decision = new NodeDecision(booking.node(), now, config.generation(),
        tenants == null ? SlackPolicy.NAME : HierarchicalPolicy.NAME, config.dryRun(),
        DecisionConfig.of(policyConfig), DecisionStats.of(result.stats()),
        decisionInputs(inputs, tenants, gangs), changes) // policy types → the topic's records, here at the boundary
        .inPool(pool == null ? null : pool.name());
    return new Decided(new Step(next, touched, false, false, Optional.of(decision)), gangs);
  }

  /**
   * Each pod's tenant under hierarchical tenancy: its namespace, weighted by the namespace's
   * slack-weight annotation (1 when it has none, or when the namespace is not known yet).
   */
  public static List<Tenant> tenants(Map<String, PodView> views, Function<String, NamespaceInfo> namespaces) {
    Map<String, Tenant> byNamespace = new HashMap<>();
    List<Tenant> tenants = new ArrayList<>(views.size());
    for (PodView view : views.values()) {
      String ns = view.entry().pod().namespace();
      tenants.add(byNamespace.computeIfAbsent(ns, n -> {
        NamespaceInfo info = namespaces.apply(n);
        return new Tenant(n, info == null ? Tenant.DEFAULT_WEIGHT_MULTIPLIER : info.slackWeightOrDefault());
      }));
    }
    return tenants;
  }

  private static List<DecisionInput> decisionInputs(List<PodInput> inputs, List<Tenant> tenants,
      GangCeilings gangs) {
    List<DecisionInput> out = new ArrayList<>(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      PodInput in = inputs.get(i);
      DecisionInput recorded = tenants == null ? DecisionInput.of(in) : DecisionInput.of(in, tenants.get(i));
      String gang = gangs.gangOf(in.key());
      out.add(gang == null ? recorded : recorded.inGang(gang, CeilingRatio.of(gangs.ceilingOf(in.key()))));
    }
    return out;
  }

  /** Every live pod as the policy sees it, in uid order. */
  public static Map<String, PodView> views(
      NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Instant now) {
    Map<String, PodView> views = new LinkedHashMap<>(booking.pods().size() * 4 / 3 + 1);
    // Each namespace is looked up once per decision; pods of one namespace tend to share a node,
    // so the last one answers most lookups without a map of its own per decision.
    Map<String, NamespaceInfo> nsCache = null;
    String lastNs = null;
    NamespaceInfo lastInfo = null;
    for (PodEntry entry : booking.pods().values()) {
      PodSnapshot pod = entry.pod();
      NamespaceInfo ns;
      if (lastNs != null && lastNs.equals(pod.namespace())) {
        ns = lastInfo;
      } else {
        if (nsCache == null) {
          nsCache = new HashMap<>();
        }
        ns = nsCache.computeIfAbsent(pod.namespace(), namespaces);
        lastNs = pod.namespace();
        lastInfo = ns;
      }
      Ineligibility whyNot = Eligibility.whyNot(entry, booking.snapshot(), ns, config, now);
      Pending pending = usablePending(entry, config, now);
      List<ContainerSnapshot> bearing = pod.limitBearingContainers();
      List<ContainerInput> containers = new ArrayList<>(bearing.size());
      for (ContainerSnapshot c : bearing) {
        long limit = c.cpuLimitMilli();
        if (whyNot == null && pending != null && pending.containers().containsKey(c.name())) {
          limit = pending.containers().get(c.name());
        }
        containers.add(new ContainerInput(c.name(), c.cpuRequestMilli(), limit, c.memoryGuaranteed()));
      }
      PodInput input = new PodInput(pod.uid(), pod.effectiveRequestMilli(),
          ContainerInput.podCurrentLimitMilli(containers), whyNot == null,
          userCap(pod, ns, containers));
      views.put(pod.uid(), new PodView(entry, input, containers, whyNot));
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
   * The booking's pods with this decision's edits: the edits are kept apart and the table copied
   * once at the end, only when there were any, as most evaluations change no pod.
   */
  private static final class PodEdits {
    private final PodTable original;
    private final Map<String, PodEntry> edits = new HashMap<>(4);

    PodEdits(PodTable original) {
      this.original = original;
    }

    PodEntry get(String uid) {
      PodEntry edited = edits.get(uid);
      return edited != null ? edited : original.get(uid);
    }

    void put(String uid, PodEntry entry) {
      edits.put(uid, entry);
    }

    /** The edited pods (only after an edit). */
    PodTable edited() {
      return original.replacing(edits);
    }
  }

  private static void dropStalePending(Map<String, PodView> views, PodEdits pods,
      Set<String> touched, ClusterConfig config, Instant now) {
    for (PodView view : views.values()) {
      PodEntry entry = view.entry();
      if (entry.pending() != null
          && (view.whyNot() != null || usablePending(entry, config, now) == null)) {
        pods.put(entry.pod().uid(), entry.withPending(null));
        touched.add(entry.pod().uid());
      }
    }
  }

  /**
   * The pod's cap: its max-cpu annotation and its namespace's LimitRange caps, which the API server
   * enforces on every resize: the largest target whose pro-rata split keeps every container within
   * its container max and limit/request ratio, and the pod's summed limits within the pod max
   * ({@link LimitRangeCaps#podTargetCapMilli}).
   */
  static long userCap(PodSnapshot pod, NamespaceInfo ns, List<ContainerInput> containers) {
    if (ns == null) {
      return pod.maxCpuMilli();
    }
    long byLimitRange =
        ns.limitRangeCaps().podTargetCapMilli(containers, fixedLimitsMilli(pod, containers));
    return LimitRangeCaps.tighter(pod.maxCpuMilli(), byLimitRange);
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
