package dev.kubeheadroom.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hierarchical tenancy (docs/design/headroom-design.txt §11.1): the node's slack is split first
 * across tenants by weight, then across each tenant's managed pods by request, so a tenant's
 * number of pods never moves slack away from another tenant.
 *
 * <p>Differences from {@link SlackPolicy}, each for the tenant guarantee:
 * <ul>
 *   <li>the slack-aware floor is the tenant's: {@code min(minBurstFloor, tenantSlack / tenantPods)},
 *       and a tenant's bursts are scaled down together when floors would push their sum past the
 *       tenant's slack (in flat mode many tiny pods each claim the floor and oversubscribe);
 *   <li>bursts and quantization round <em>down</em>, so Σ(target − request) ≤ slack exactly.
 * </ul>
 * With no slack (or no managed requests) every target is as in {@link SlackPolicy}: nothing is
 * shared either way. Caps and the deadband are {@link SlackPolicy}'s.
 */
public final class HierarchicalPolicy {
  /** The policy name recorded with decisions computed in this mode. */
  public static final String NAME = "hierarchical-v1";

  private HierarchicalPolicy() {}

  /**
   * Computes one node. {@code tenants} is parallel to {@code pods} (the tenant of each pod; the
   * unmanaged pods' entries are ignored). Deterministic and side-effect free.
   */
  public static NodeResult computeNode(
      long allocatableMilli, List<PodInput> pods, List<Tenant> tenants, PolicyConfig config) {
    Map<String, TargetTrace> traces = traces(allocatableMilli, pods, tenants, config);
    NodeStats stats = SlackPolicy.aggregate(allocatableMilli, pods);
    List<Decision> decisions = new ArrayList<>(stats.managedPods());
    for (PodInput pod : pods) {
      if (pod.managed()) {
        decisions.add(SlackPolicy.deadband(pod, traces.get(pod.key()).targetMilli(), config));
      }
    }
    return new NodeResult(stats, decisions);
  }

  /** How each managed pod's target was reached, by pod key (what {@code explain} prints). */
  public static Map<String, TargetTrace> traces(
      long allocatableMilli, List<PodInput> pods, List<Tenant> tenants, PolicyConfig config) {
    if (allocatableMilli < 0) {
      throw new IllegalArgumentException("allocatableMilli must be >= 0, got " + allocatableMilli);
    }
    if (tenants.size() != pods.size()) {
      throw new IllegalArgumentException(
          "one tenant per pod: " + pods.size() + " pods, " + tenants.size() + " tenants");
    }
    NodeStats stats = SlackPolicy.aggregate(allocatableMilli, pods);
    Map<String, TargetTrace> traces = new LinkedHashMap<>();
    if (stats.slackMilli() <= 0 || stats.managedRequestsMilli() <= 0) {
      for (PodInput pod : pods) {
        if (pod.managed()) {
          traces.put(pod.key(), SlackPolicy.trace(pod, stats, config)); // nothing to share
        }
      }
      return traces;
    }
    Map<String, Group> groups = groups(pods, tenants);
    Map<String, Double> slackByTenant = tenantSlack(stats.slackMilli(), groups);
    for (Map.Entry<String, Group> e : groups.entrySet()) {
      Group g = e.getValue();
      double tenantSlack = slackByTenant.get(e.getKey());
      double floor = Math.min((double) config.minBurstFloorMilli(), tenantSlack / g.pods.size());
      double wanted = 0;
      for (PodInput pod : g.pods) {
        wanted += Math.max(proportional(tenantSlack, pod, g), floor);
      }
      double scale = wanted > tenantSlack ? tenantSlack / wanted : 1.0;
      for (PodInput pod : g.pods) {
        double proportional = proportional(tenantSlack, pod, g);
        long burst = (long) Math.floor(Math.max(proportional, floor) * scale);
        traces.put(pod.key(), trace(pod, stats, config, proportional, floor, burst));
      }
    }
    Map<String, TargetTrace> inOrder = new LinkedHashMap<>();
    for (PodInput pod : pods) {
      if (pod.managed()) {
        inOrder.put(pod.key(), traces.get(pod.key()));
      }
    }
    return inOrder;
  }

  /**
   * Each tenant's part of the node's slack, in millicores (what {@code explain} prints): the slack
   * times the tenant's weight over the sum of weights. Empty when nothing is shared.
   */
  public static Map<String, Double> tenantSlackMilli(
      long allocatableMilli, List<PodInput> pods, List<Tenant> tenants) {
    NodeStats stats = SlackPolicy.aggregate(allocatableMilli, pods);
    if (stats.slackMilli() <= 0 || stats.managedRequestsMilli() <= 0) {
      return Map.of();
    }
    return tenantSlack(stats.slackMilli(), groups(pods, tenants));
  }

  private static Map<String, Double> tenantSlack(long slackMilli, Map<String, Group> groups) {
    double totalWeight = 0;
    for (Group g : groups.values()) {
      totalWeight += g.weight();
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (Map.Entry<String, Group> e : groups.entrySet()) {
      out.put(e.getKey(), slackMilli * (e.getValue().weight() / totalWeight));
    }
    return out;
  }

  /** A tenant's managed pods on the node, in input order, and its weight. */
  private static final class Group {
    final double multiplier;
    final List<PodInput> pods = new ArrayList<>();
    long requestsMilli;

    Group(double multiplier) {
      this.multiplier = multiplier;
    }

    double weight() {
      return requestsMilli * multiplier;
    }
  }

  private static Map<String, Group> groups(List<PodInput> pods, List<Tenant> tenants) {
    Map<String, Group> groups = new LinkedHashMap<>();
    for (int i = 0; i < pods.size(); i++) {
      PodInput pod = pods.get(i);
      if (!pod.managed()) {
        continue;
      }
      Tenant tenant = tenants.get(i);
      Group g = groups.computeIfAbsent(tenant.name(), n -> new Group(tenant.weightMultiplier()));
      g.pods.add(pod);
      g.requestsMilli = Saturating.add(g.requestsMilli, pod.requestMilli());
    }
    return groups;
  }

  private static double proportional(double tenantSlack, PodInput pod, Group g) {
    return g.requestsMilli == 0 ? 0 : tenantSlack * pod.requestMilli() / g.requestsMilli;
  }

  private static TargetTrace trace(PodInput pod, NodeStats stats, PolicyConfig config,
      double proportional, double floor, long burst) {
    long request = pod.requestMilli();
    SlackPolicy.Cap cap = SlackPolicy.cap(pod, stats, config);
    long raw = Saturating.add(request, burst);
    long clamped = Math.min(Math.max(raw, request), cap.hiMilli());
    long target = quantizeDown(clamped, request, config.quantumMilli());
    return new TargetTrace(request, true, proportional, floor, burst, raw, cap.hiMilli(),
        raw > cap.hiMilli() ? cap.bound() : TargetTrace.Bound.NONE, target);
  }

  /** Down to a whole quantum, never below the request: a target never takes more than its burst. */
  static long quantizeDown(long raw, long request, long quantum) {
    if (quantum <= 0) {
      return raw;
    }
    return Math.max(raw - Math.floorMod(raw, quantum), request);
  }
}
