package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.ContainerTarget;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.GangRatio;
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
import dev.kubeheadroom.policy.UniformCeiling;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.GangMember;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.Tenancy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The oracle {@link NodeDeciderRowsTest} holds {@link NodeDecider} to: the decision in its plain
 * form, small by design. It holds the decider's machinery (facts kept per snapshot, rows and
 * columns, policy records made only where a verdict applies, namespaces judged once, gangs), not
 * the product's rules: every gate is judged per pod per decision from the snapshot, a view and a
 * {@link PodInput} per pod, the record entry point of the policy, a map of views. The snapshot's
 * own gates are {@link Ineligibility#ofSnapshot}'s, asked afresh (not the facts' copy), so a new
 * gate is added to the product alone; only the order of the node's and namespace's gates among
 * them is stated here. Not used by the product.
 */
final class PlainNodeDecider {
  private PlainNodeDecider() {}

  /** What a decision gives: the step's parts and the node's gangs. */
  record Plain(NodeBooking booking, TreeSet<String> touched, Optional<NodeDecision> decision,
      Map<String, List<GangMember>> report, Map<String, String> gangByUid, Map<String, GangRatio> ceilingByUid) {}

  static Plain decide(NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Map<String, CeilingRatio> ceilings, Instant now) {
    NodePool pool = config.poolFor(booking.snapshot().labels()).orElse(null);
    PolicyConfig policyConfig = config.forPool(pool).toPolicyConfig();
    Map<String, NodeDecider.PodView> views = views(booking, config, namespaces, now);
    List<PodInput> inputs = new ArrayList<>();
    List<Tenant> tenants = config.tenancy() == Tenancy.NAMESPACES ? new ArrayList<>() : null;
    for (NodeDecider.PodView view : views.values()) {
      inputs.add(view.input());
      if (tenants != null) {
        NamespaceInfo info = namespaces.apply(view.entry().pod().namespace());
        tenants.add(new Tenant(view.entry().pod().namespace(),
            info == null ? Tenant.DEFAULT_WEIGHT_MULTIPLIER : info.slackWeightOrDefault()));
      }
    }
    long allocatable = booking.snapshot().allocatableMilli();
    NodeResult result = tenants == null ? SlackPolicy.computeNode(allocatable, inputs, policyConfig)
        : HierarchicalPolicy.computeNode(allocatable, inputs, tenants, policyConfig);

    // gangs: members by their own targets, the lowest ratio per gang of two or more (or remote)
    Map<String, String> gangByUid = new HashMap<>();
    Map<String, List<GangMember>> report = new TreeMap<>();
    for (Decision d : result.decisions()) {
      NodeDecider.PodView view = views.get(d.key());
      String gang = GangKey.of(view.entry().pod(), config.gangOwnerKinds());
      long request = view.input().requestMilli();
      if (gang != null && request > 0 && d.targetLimitMilli() >= request) {
        gangByUid.put(d.key(), gang);
        report.computeIfAbsent(gang, g -> new ArrayList<>()).add(new GangMember(d.key(), request, d.targetLimitMilli()));
      }
    }
    Map<String, GangRatio> ceilingByGang = new HashMap<>();
    report.forEach((gang, members) -> {
      CeilingRatio elsewhere = ceilings.get(gang);
      if (elsewhere != null || members.size() >= 2) {
        List<GangRatio> ratios = new ArrayList<>();
        members.forEach(m -> ratios.add(m.ratio()));
        if (elsewhere != null) {
          ratios.add(elsewhere.toPolicy());
        }
        ceilingByGang.put(gang, GangRatio.lowest(ratios));
      }
    });
    Map<String, GangRatio> ceilingByUid = new HashMap<>();
    gangByUid.forEach((uid, gang) -> {
      if (ceilingByGang.containsKey(gang)) {
        ceilingByUid.put(uid, ceilingByGang.get(gang));
      }
    });

    TreeMap<String, PodEntry> pods = new TreeMap<>(booking.pods());
    TreeSet<String> touched = new TreeSet<>();
    for (NodeDecider.PodView view : views.values()) {
      PodEntry entry = view.entry();
      if (entry.pending() != null && (view.whyNot() != null || usablePending(entry, config, now) == null)) {
        pods.put(entry.pod().uid(), entry.withPending(null));
        touched.add(entry.pod().uid());
      }
    }
    List<PodChange> changes = new ArrayList<>();
    for (Decision own : result.decisions()) {
      NodeDecider.PodView view = views.get(own.key());
      GangRatio ceiling = ceilingByUid.get(own.key());
      Decision decision = ceiling == null ? own : UniformCeiling.apply(view.input(), own, ceiling, policyConfig);
      if (!decision.apply()) {
        continue;
      }
      // The cap the API server enforces (a LimitRange's part of it) decides the QoS floor's raise.
      PodPlan plan = PodPlanner.plan(decision, view.input(), view.containers(), policyConfig,
          NodeDecider.enforcedCap(view.entry().pod(), view.input()));
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
        pending.containers().forEach(emitted::putIfAbsent);
      }
      pods.put(pod.uid(), pods.get(pod.uid()).withPending(new Pending(plan.targetLimitMilli(), emitted, now, config.dryRun())));
      touched.add(pod.uid());
    }
    NodeBooking next = new NodeBooking(booking.node(), booking.snapshot(), pods);
    Optional<NodeDecision> decision = Optional.empty();
    if (!changes.isEmpty()) {
      List<DecisionInput> recorded = new ArrayList<>();
      for (int i = 0; i < inputs.size(); i++) {
        PodInput in = inputs.get(i);
        DecisionInput r = tenants == null ? DecisionInput.of(in) : DecisionInput.of(in, tenants.get(i));
        String gang = gangByUid.get(in.key());
        recorded.add(gang == null ? r : r.inGang(gang, CeilingRatio.of(ceilingByUid.get(in.key()))));
      }
      decision = Optional.of(new NodeDecision(booking.node(), now, config.generation(),
          tenants == null ? SlackPolicy.NAME : HierarchicalPolicy.NAME, config.dryRun(),
          DecisionConfig.of(policyConfig), DecisionStats.of(result.stats()), recorded, changes)
          .inPool(pool == null ? null : pool.name()));
    }
    return new Plain(next, touched, decision, report, gangByUid, ceilingByUid);
  }

  static Map<String, NodeDecider.PodView> views(NodeBooking booking, ClusterConfig config,
      Function<String, NamespaceInfo> namespaces, Instant now) {
    Map<String, NodeDecider.PodView> views = new LinkedHashMap<>();
    for (PodEntry entry : booking.pods().values()) {
      PodSnapshot pod = entry.pod();
      NamespaceInfo ns = namespaces.apply(pod.namespace());
      Ineligibility whyNot = whyNot(entry, booking.snapshot(), ns, config, now);
      Pending pending = usablePending(entry, config, now);
      List<ContainerInput> containers = new ArrayList<>();
      for (ContainerSnapshot c : pod.limitBearingContainers()) {
        long limit = c.cpuLimitMilli();
        if (whyNot == null && pending != null && pending.containers().containsKey(c.name())) {
          limit = pending.containers().get(c.name());
        }
        containers.add(new ContainerInput(c.name(), c.cpuRequestMilli(), limit, c.memoryGuaranteed()));
      }
      PodInput input = new PodInput(pod.uid(), pod.effectiveRequestMilli(),
          ContainerInput.podCurrentLimitMilli(containers), whyNot == null, userCap(pod, ns, containers));
      views.put(pod.uid(), new NodeDecider.PodView(entry, input, containers, whyNot));
    }
    return views;
  }

  static Ineligibility whyNot(PodEntry entry, NodeSnapshot node, NamespaceInfo namespace, ClusterConfig config,
      Instant now) {
    PodSnapshot pod = entry.pod();
    if (pod.terminal()) {
      return Ineligibility.TERMINAL;
    }
    if (node == null || !node.resizable()) {
      return Ineligibility.NODE_NOT_RESIZABLE;
    }
    if (!config.manages(namespace)) {
      return Ineligibility.NAMESPACE_NOT_MANAGED;
    }
    Ineligibility bySnapshot = Ineligibility.ofSnapshot(pod, pod.effectiveRequestMilli());
    if (bySnapshot != null) {
      return bySnapshot;
    }
    if (entry.inBackoff(now, config.backoffPeriod())) {
      return Ineligibility.BACKOFF;
    }
    return null;
  }

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

  static long userCap(PodSnapshot pod, NamespaceInfo ns, List<ContainerInput> containers) {
    if (ns == null) {
      return pod.maxCpuMilli();
    }
    long byLimitRange = ns.limitRangeCaps().podTargetCapMilli(containers, fixedLimitsMilli(pod, containers));
    return LimitRangeCaps.tighter(pod.maxCpuMilli(), byLimitRange);
  }

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
}
