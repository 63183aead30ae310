package dev.kubeheadroom.replay;

import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PodPlan;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.TargetTrace;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.policy.UniformCeiling;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.Tenancy;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.NamespaceTenants;
import dev.kubeheadroom.topology.booking.NodeDecider;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Why a pod has the limit it has: the node's booking (who booked it), the policy's arithmetic for
 * the pod, the deadband, and the last decision and outcome that touched it. Built from the
 * topology's own booking and the policy's own trace, so it cannot disagree with them.
 */
public record Explanation(
    Instant at,
    String node,
    long allocatableMilli,
    List<Booker> bookers,
    long slackMilli,
    long managedRequestsMilli,
    int managedPods,
    double factor,
    PodSnapshot pod,
    Pending inFlight,
    String notManagedBecause,
    TargetTrace trace,
    Decision decision,
    PolicyConfig config,
    Optional<NodeDecision> lastDecision,
    Optional<ResizeOutcome> lastOutcome,
    String pool,
    TenantShare tenant,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    String gang,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    CeilingRatio gangCeiling) {

  /**
   * Under hierarchical tenancy, the pod's tenant and its part of the node's slack.
   *
   * @param slackMilli the tenant's part of the slack, S_t = S · weight / Σ weights
   * @param requestsMilli M_t, the tenant's managed requests on the node
   * @param pods N_t, its managed pods on the node
   */
  public record TenantShare(String name, double weightMultiplier, double slackMilli, long requestsMilli, int pods) {}

  /** A target sent but not yet confirmed by the pod. */
  public record Pending(long targetMilli, Instant sentAt, boolean dryRun) {}

  /** One pod's booking on the node. */
  public record Booker(String namespace, String name, long requestMilli, boolean managed, String whyNot) {}

  /** Explains {@code podUid} on {@code booking} at {@code now}. */
  public static Explanation of(NodeBooking booking, String podUid, ClusterConfig config,
      Function<String, NamespaceInfo> namespaces, Instant now, Optional<NodeDecision> lastDecision,
      Optional<ResizeOutcome> lastOutcome) {
    Map<String, NodeDecider.PodView> views = NodeDecider.views(booking, config, namespaces, now);
    List<PodInput> inputs = views.values().stream().map(NodeDecider.PodView::input).toList();
    // The node's pool and the tenancy mode, exactly as the topology's NodeDecider applies them.
    NodePool nodePool = config.poolFor(booking.snapshot().labels()).orElse(null);
    PolicyConfig policy = config.forPool(nodePool).toPolicyConfig();
    long allocatable = booking.snapshot().allocatableMilli();
    List<Tenant> tenants = config.tenancy() == Tenancy.NAMESPACES ? NamespaceTenants.of(views, namespaces) : null;
    NodeResult result = tenants == null
        ? SlackPolicy.computeNode(allocatable, inputs, policy)
        : HierarchicalPolicy.computeNode(allocatable, inputs, tenants, policy);
    List<Booker> bookers = new ArrayList<>();
    for (NodeDecider.PodView v : views.values()) {
      PodSnapshot p = v.entry().pod();
      bookers.add(new Booker(p.namespace(), p.name(), v.input().requestMilli(), v.whyNot() == null, wireName(v.whyNot())));
    }
    bookers.sort(Comparator.comparingLong(Booker::requestMilli).reversed()
        .thenComparing(Booker::namespace).thenComparing(Booker::name));
    NodeDecider.PodView view = views.get(podUid);
    TargetTrace trace = view.whyNot() != null ? null
        : tenants == null ? SlackPolicy.trace(view.input(), result.stats(), policy)
        : HierarchicalPolicy.traces(allocatable, inputs, tenants, policy).get(podUid);
    TenantShare share = view.whyNot() != null || tenants == null ? null
        : tenantShare(view, inputs, tenants, allocatable);
    Decision decision = result.decisions().stream().filter(d -> d.key().equals(podUid)).findFirst().orElse(null);
    // A gang member (§11.6): the ceiling its gang set at the last decision of its node, which
    // recorded it; the gang's other nodes are not in this booking.
    String gang = GangKey.of(view.entry().pod(), config.gangOwnerKinds());
    CeilingRatio ceiling = gang == null ? null : lastDecision.flatMap(d -> d.inputs().stream()
        .filter(in -> in.key().equals(podUid) && gang.equals(in.gang())).findFirst())
        .map(DecisionInput::gangCeiling).orElse(null);
    if (decision != null && ceiling != null) {
      decision = UniformCeiling.apply(view.input(), decision, ceiling.toPolicy(), policy);
    }
    if (decision != null) {
      // The planner's own verdicts (the QoS guard, a limit below its request) are what applies.
      PodPlan plan = PodPlanner.plan(decision, view.input(), view.containers(), policy,
          NodeDecider.enforcedCap(view.entry().pod(), view.input()));
      if (plan.reason() != decision.reason()) {
        decision = new Decision(decision.key(), plan.targetLimitMilli(), plan.apply(), plan.reason());
      }
    }
    var s = result.stats();
    var p = view.entry().pending();
    Pending inFlight = p == null ? null : new Pending(p.targetMilli(), p.at(), p.dryRun());
    return new Explanation(now, booking.node(), s.allocatableMilli(), bookers, s.slackMilli(),
        s.managedRequestsMilli(), s.managedPods(), s.factor(), view.entry().pod(), inFlight, wireName(view.whyNot()),
        trace, decision, policy, lastDecision, lastOutcome, nodePool == null ? null : nodePool.name(), share,
        gang, ceiling);
  }

  private static TenantShare tenantShare(NodeDecider.PodView view, List<PodInput> inputs, List<Tenant> tenants,
      long allocatable) {
    String name = view.entry().pod().namespace();
    long requests = 0;
    int pods = 0;
    double weight = 1;
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).managed() && tenants.get(i).name().equals(name)) {
        requests += inputs.get(i).requestMilli();
        pods++;
        weight = tenants.get(i).weightMultiplier();
      }
    }
    double slack = HierarchicalPolicy.tenantSlackMilli(allocatable, inputs, tenants).getOrDefault(name, 0.0);
    return new TenantShare(name, weight, slack, requests, pods);
  }

  private static String wireName(Ineligibility why) {
    return why == null ? null : why.wireName();
  }

  /** The explanation for a person. */
  public void print(PrintWriter out) {
    out.printf(Locale.ROOT, "Pod %s/%s on node %s, as of %s%n", Printable.escape(pod.namespace()),
        Printable.escape(pod.name()), Printable.escape(node), at);
    out.printf(Locale.ROOT, "  current limit: %s (request %s)%n",
        limit(pod), cpu(pod.effectiveRequestMilli()));
    if (inFlight != null) {
      out.printf(Locale.ROOT, "  %s %s at %s, not yet confirmed by the pod (the policy counts it as current)%n",
          inFlight.dryRun() ? "dry-run target" : "in flight: target", cpu(inFlight.targetMilli()), inFlight.sentAt());
    }
    out.println();
    out.printf(Locale.ROOT, "Node %s: allocatable %s, booked by %d pods:%n", node, cpu(allocatableMilli), bookers.size());
    for (Booker b : bookers) {
      out.printf(Locale.ROOT, "  %-40s %8s  %s%n", Printable.escape(b.namespace() + "/" + b.name()), cpu(b.requestMilli()),
          b.managed() ? "managed" : "not managed (" + b.whyNot() + ")");
    }
    out.printf(Locale.ROOT, "  slack S = allocatable − Σ requests = %s%n", cpu(slackMilli));
    out.printf(Locale.ROOT, "  managed requests M = %s over N = %d pods; factor F = 1 + S/M = %.2f%n",
        cpu(managedRequestsMilli), managedPods, factor);
    if (pool != null) {
      out.printf(Locale.ROOT, "  node pool %s: its knobs apply (maxMultiplier %s, minBurstFloor %s)%n", pool,
          config.maxMultiplier() > 0 ? config.maxMultiplier() : "unlimited", cpu(config.minBurstFloorMilli()));
    }
    out.println();
    if (notManagedBecause != null) {
      out.printf(Locale.ROOT, "This pod is not managed (%s): Headroom leaves its limit alone.%n", notManagedBecause);
      printHistory(out);
      return;
    }
    long r = trace.requestMilli();
    if (!trace.shared()) {
      out.printf(Locale.ROOT, "Nothing to share (S = 0): raw = request = %s, cap = %s%n", cpu(r),
          cpu(trace.capMilli()));
    } else if (tenant != null) {
      out.printf(Locale.ROOT, "  tenant %s (weight ×%s): S_t = %.1fm of the slack, M_t = %s over N_t = %d pods%n",
          tenant.name(), tenant.weightMultiplier(), tenant.slackMilli(), cpu(tenant.requestsMilli()), tenant.pods());
      out.printf(Locale.ROOT, "  proportional share  S_t·r/M_t = %.1fm%n", trace.proportionalMilli());
      out.printf(Locale.ROOT, "  floor min(%s, S_t/N_t) = %.1fm%n", cpu(config.minBurstFloorMilli()), trace.floorMilli());
    } else {
      out.printf(Locale.ROOT, "  proportional share  S·r/M = %s·%s/%s = %.1fm%n", cpu(slackMilli), cpu(r),
          cpu(managedRequestsMilli), trace.proportionalMilli());
      out.printf(Locale.ROOT, "  floor min(%s, S/N) = %.1fm%n", cpu(config.minBurstFloorMilli()), trace.floorMilli());
    }
    if (trace.shared()) {
      out.printf(Locale.ROOT, "  burst = max of the two (%s)%s = %s; request + burst = %s%n",
          trace.floorWon() ? "the floor" : "the proportional share",
          tenant == null ? "" : ", scaled to fit S_t, rounded down", cpu(trace.burstMilli()), cpu(trace.rawMilli()));
      out.printf(Locale.ROOT, "  cap = %s%s%n", cpu(trace.capMilli()), switch (trace.boundBy()) {
        case NONE -> " (not reached)";
        case ALLOCATABLE -> " (node allocatable: bound)";
        case MAX_MULTIPLIER -> " (request × maxMultiplier " + config.maxMultiplier() + ": bound)";
        case USER_CAP -> " (max-cpu annotation / LimitRange caps: bound)";
      });
    }
    out.printf(Locale.ROOT, "  target (quantized to %dm) = %s%n", config.quantumMilli(), cpu(trace.targetMilli()));
    if (gang != null && gangCeiling == null) {
      out.printf(Locale.ROOT, "  gang %s: no ceiling (no other member was known at the last decision)%n", gang);
    } else if (gang != null) {
      out.printf(Locale.ROOT, "  gang %s: ceiling ×%.3f (%s/%s, the lowest own target/request of its members at the"
          + " last decision)%n    → target = request × ceiling, rounded down to %dm, within [request, %s] = %s%n",
          gang, (double) gangCeiling.targetMilli() / gangCeiling.requestMilli(), cpu(gangCeiling.targetMilli()),
          cpu(gangCeiling.requestMilli()), config.quantumMilli(), cpu(trace.targetMilli()),
          cpu(UniformCeiling.target(trace.requestMilli(), trace.targetMilli(), gangCeiling.toPolicy(),
              config.quantumMilli())));
    }
    if (decision != null) {
      out.printf(Locale.ROOT, "  deadband: %s (grow %.0f%%, shrink %.0f%%)%n", describe(decision),
          config.deadbandGrow() * 100, config.deadbandShrink() * 100);
    }
    printHistory(out);
  }

  private void printHistory(PrintWriter out) {
    out.println();
    lastDecision.ifPresentOrElse(
        d -> d.changes().stream().filter(c -> c.uid().equals(pod.uid())).findFirst().ifPresent(c ->
            out.printf(Locale.ROOT, "Last decision %s: %s → %s (%s, node factor %.2f%s)%n", d.at(),
                cpu(c.fromMilli()), cpu(c.targetMilli()), c.reason(), d.stats().factor(), d.dryRun() ? ", dry-run" : "")),
        () -> out.println("No decision in the replayed history has changed this pod's limit."));
    lastOutcome.ifPresent(o -> out.printf(Locale.ROOT, "Last outcome %s: %s%s%n", o.at(), o.result().wireName(),
        o.message().isEmpty() ? "" : " (" + o.message() + ")"));
    out.flush();
  }

  private static String describe(Decision d) {
    return switch (d.reason()) {
      case UNCHANGED -> "target equals the current limit";
      case SET -> "no limit yet: set";
      case GROW -> "grows";
      case SHRINK -> "shrinks";
      case WITHIN_DEADBAND -> "within the deadband: left as is";
      case QOS_GUARD -> "left alone to keep the pod Burstable";
      case BELOW_REQUEST -> "a limit below its request: raised to the target whatever the deadband";
      case CAP_BELOW_QOS_FLOOR -> "the pod's cap is at or below its request and memory is Guaranteed:"
          + " request + one quantum, the lowest limit that keeps the pod Burstable (the cap is not honoured)";
    };
  }

  private static String limit(PodSnapshot pod) {
    long sum = 0;
    for (var c : pod.limitBearingContainers()) {
      if (c.cpuRequestMilli() > 0) {
        if (c.cpuLimitMilli() == 0) {
          return "none";
        }
        sum = dev.kubeheadroom.policy.Saturating.add(sum, c.cpuLimitMilli());
      }
    }
    return cpu(sum);
  }

  static String cpu(long milli) {
    return ReportWriter.cpu(milli);
  }
}
