package dev.kubeheadroom.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * The proportional-with-floor policy ({@code proportional-v1}): docs/design/headroom-design.txt §5, docs/design/policy.md.
 *
 * <p>Steps, in pipeline order: node aggregates → raw target (proportional share of slack, with the
 * slack-aware floor) → caps (multiplier, allocatable, user cap; the request is the hard floor) →
 * quantization → deadband.
 *
 * <p>Any quantities the API server accepts are valid input, up to the 64-bit millicore range:
 * sums saturate at {@link Long#MAX_VALUE} ({@link Saturating}) rather than overflow.
 */
public final class SlackPolicy {

  /** The policy name recorded with every decision. */
  public static final String NAME = "proportional-v1";

  private SlackPolicy() {}

  /** Computes one node. Deterministic and side-effect free. */
  public static NodeResult computeNode(
      long allocatableMilli, List<PodInput> pods, PolicyConfig config) {
    PodColumns columns = PodColumns.of(pods);
    NodeStats stats = computeNode(allocatableMilli, columns, config);
    List<Decision> decisions = new ArrayList<>(stats.managedPods());
    for (int i = 0; i < columns.size(); i++) {
      if (columns.managed(i)) {
        decisions.add(columns.decision(i, pods.get(i).key()));
      }
    }
    return new NodeResult(stats, decisions);
  }

  /**
   * Computes one node over its pods as columns: fills each managed row's target, reason and
   * apply, and returns the aggregates. The rules of {@link #computeNode(long, List, PolicyConfig)},
   * which calls this, without an object per pod. Deterministic; writes only {@code pods}' outputs.
   */
  public static NodeStats computeNode(long allocatableMilli, PodColumns pods, PolicyConfig config) {
    if (allocatableMilli < 0) {
      throw new IllegalArgumentException("allocatableMilli must be >= 0, got " + allocatableMilli);
    }
    NodeStats stats = aggregate(allocatableMilli, pods);
    for (int i = 0; i < pods.size(); i++) {
      if (pods.managed(i)) {
        long target = target(pods.requestMilli(i), pods.userCapMilli(i), stats, config, null);
        pods.decide(i, target, deadband(pods.requestMilli(i), pods.currentLimitMilli(i), target, config));
      }
    }
    return stats;
  }

  static NodeStats aggregate(long allocatableMilli, List<PodInput> pods) {
    return aggregate(allocatableMilli, PodColumns.of(pods));
  }

  static NodeStats aggregate(long allocatableMilli, PodColumns pods) {
    long total = 0;
    long managedRequests = 0;
    int managed = 0;
    for (int i = 0; i < pods.size(); i++) {
      total = Saturating.add(total, pods.requestMilli(i));
      if (pods.managed(i)) {
        managedRequests = Saturating.add(managedRequests, pods.requestMilli(i));
        managed++;
      }
    }
    long slack = Math.max(allocatableMilli - total, 0);
    double factor =
        slack > 0 && managedRequests > 0 ? 1.0 + (double) slack / managedRequests : 1.0;
    return new NodeStats(allocatableMilli, total, slack, managedRequests, managed, pods.size(), factor);
  }

  /** The quantized, capped target for one managed pod (docs/design/policy.md steps 1–4). */
  static long target(PodInput pod, NodeStats stats, PolicyConfig config) {
    return target(pod.requestMilli(), pod.userCapMilli(), stats, config, null);
  }

  /** The steps to one managed pod's target (docs/design/policy.md steps 1–4), for the target and explain. */
  public static TargetTrace trace(PodInput pod, NodeStats stats, PolicyConfig config) {
    Steps steps = new Steps();
    long target = target(pod.requestMilli(), pod.userCapMilli(), stats, config, steps);
    return new TargetTrace(pod.requestMilli(), steps.shared, steps.proportional, steps.floor,
        steps.burst, steps.raw, steps.hi, steps.raw > steps.hi ? steps.bound : TargetTrace.Bound.NONE, target);
  }

  /**
   * The one computation of a managed pod's target (docs/design/policy.md steps 1–4). {@code steps},
   * when not null, is told the intermediate values (what {@link #trace} reports); the decision's
   * path passes null and makes no object.
   */
  private static long target(long request, long userCap, NodeStats stats, PolicyConfig config, Steps steps) {
    long slack = stats.slackMilli();
    long managedRequests = stats.managedRequestsMilli();
    long hi = capMilli(request, userCap, stats.allocatableMilli(), config, steps);
    if (slack <= 0 || managedRequests <= 0) {
      // Nothing to share: raw = request (docs/design/headroom-design.txt §5.4), still quantized within [request, hi] like
      // every target (docs/design/policy.md step 4): 1005m → 1010m, while 1004m stays 1004m (never below).
      if (steps != null) {
        steps.unshared(request);
      }
      return quantize(request, request, hi, config.quantumMilli());
    }
    double proportional = (double) slack * request / managedRequests;
    double floor = Math.min((double) config.minBurstFloorMilli(), (double) slack / stats.managedPods());
    long burst = roundHalfAwayFromZero(Math.max(proportional, floor));
    long raw = Saturating.add(request, burst);
    long clamped = Math.min(Math.max(raw, request), hi);
    if (steps != null) {
      steps.shared(proportional, floor, burst, raw);
    }
    return quantize(clamped, request, hi, config.quantumMilli());
  }

  /** The effective cap on one pod's target and which cap it is (docs/design/policy.md step 2). */
  record Cap(long hiMilli, TargetTrace.Bound bound) {}

  static Cap cap(PodInput pod, NodeStats stats, PolicyConfig config) {
    Steps steps = new Steps();
    long hi = capMilli(pod.requestMilli(), pod.userCapMilli(), stats.allocatableMilli(), config, steps);
    return new Cap(hi, steps.bound);
  }

  /** The effective cap (docs/design/policy.md step 2); {@code steps}, when not null, learns which cap it is. */
  private static long capMilli(long request, long userCap, long allocatable, PolicyConfig config, Steps steps) {
    long hi = allocatable;
    TargetTrace.Bound bound = TargetTrace.Bound.ALLOCATABLE;
    if (config.maxMultiplier() > 0) {
      long byMultiplier = roundHalfAwayFromZero(request * config.maxMultiplier());
      if (byMultiplier < hi) {
        hi = byMultiplier;
        bound = TargetTrace.Bound.MAX_MULTIPLIER;
      }
    }
    if (userCap > 0 && userCap < hi) {
      hi = userCap;
      bound = TargetTrace.Bound.USER_CAP;
    }
    hi = Math.max(hi, request); // the request is the hard floor, whatever a cap says
    if (steps != null) {
      steps.capped(hi, bound);
    }
    return hi;
  }

  /** The intermediate values of one target, for {@link #trace} and {@link #cap}. */
  private static final class Steps {
    boolean shared;
    double proportional;
    double floor;
    long burst;
    long raw;
    long hi;
    TargetTrace.Bound bound = TargetTrace.Bound.NONE;

    void capped(long hiMilli, TargetTrace.Bound by) {
      hi = hiMilli;
      bound = by;
    }

    void unshared(long request) {
      raw = request;
      bound = TargetTrace.Bound.NONE; // nothing shared: no cap decided anything
    }

    void shared(double proportionalMilli, double floorMilli, long burstMilli, long rawMilli) {
      shared = true;
      proportional = proportionalMilli;
      floor = floorMilli;
      burst = burstMilli;
      raw = rawMilli;
    }
  }

  /**
   * Rounds to the nearest quantum, stepping back inside [request, hi] (docs/design/policy.md step 4): the one
   * quantize step, which the webhook's birth limit calls too.
   */
  public static long quantize(long raw, long request, long hi, long quantum) {
    if (quantum <= 0) {
      return raw;
    }
    // ((raw + q/2) / q) · q, written so that no intermediate can overflow near Long.MAX_VALUE.
    long rem = Math.floorMod(raw, quantum);
    long down = raw - rem;
    boolean roundsUp = rem >= quantum - quantum / 2;
    long t = roundsUp && down <= hi - quantum ? down + quantum : down; // up and over hi: back one
    if (t > hi) {
      t -= quantum;
    }
    return Math.max(t, request);
  }

  static Decision deadband(PodInput pod, long target, PolicyConfig config) {
    Reason reason = deadband(pod.requestMilli(), pod.currentLimitMilli(), target, config);
    return new Decision(pod.key(), target, applies(reason), reason);
  }

  /**
   * The deadband's verdict on moving a limit from {@code current} to {@code target}
   * (docs/design/policy.md); a limit below its {@code request} moves whatever the band says.
   */
  static Reason deadband(long request, long current, long target, PolicyConfig config) {
    if (target == current) {
      return Reason.UNCHANGED;
    }
    if (current <= 0) {
      return Reason.SET;
    }
    if (current < request) {
      return Reason.BELOW_REQUEST;
    }
    boolean grow = target > current;
    double band = grow ? config.deadbandGrow() : config.deadbandShrink();
    boolean apply = (double) Math.abs(target - current) / current >= band;
    return !apply ? Reason.WITHIN_DEADBAND : grow ? Reason.GROW : Reason.SHRINK;
  }

  /** Whether the deadband's verdict applies the target: set, grow or shrink. */
  static boolean applies(Reason reason) {
    return reason == Reason.SET || reason == Reason.GROW || reason == Reason.SHRINK || reason == Reason.BELOW_REQUEST;
  }

  /**
   * Rounds half away from zero (docs/design/policy.md). {@link Math#round(double)} rounds half up exactly; the
   * textbook {@code floor(x + 0.5)} is wrong just below one half (0.49999999999999994 + 0.5 rounds
   * to 1.0 in double arithmetic) and for odd values at or above 2^52.
   */
  static long roundHalfAwayFromZero(double value) {
    return value >= 0 ? Math.round(value) : -Math.round(-value);
  }
}
