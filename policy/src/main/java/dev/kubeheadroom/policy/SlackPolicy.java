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
    if (allocatableMilli < 0) {
      throw new IllegalArgumentException("allocatableMilli must be >= 0, got " + allocatableMilli);
    }
    NodeStats stats = aggregate(allocatableMilli, pods);
    List<Decision> decisions = new ArrayList<>(stats.managedPods());
    for (PodInput pod : pods) {
      if (pod.managed()) {
        long target = target(pod, stats, config);
        decisions.add(deadband(pod, target, config));
      }
    }
    return new NodeResult(stats, decisions);
  }

  static NodeStats aggregate(long allocatableMilli, List<PodInput> pods) {
    long total = 0;
    long managedRequests = 0;
    int managed = 0;
    for (PodInput pod : pods) {
      total = Saturating.add(total, pod.requestMilli());
      if (pod.managed()) {
        managedRequests = Saturating.add(managedRequests, pod.requestMilli());
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
    return trace(pod, stats, config).targetMilli();
  }

  /** The steps to one managed pod's target (docs/design/policy.md steps 1–4), for the target and explain. */
  public static TargetTrace trace(PodInput pod, NodeStats stats, PolicyConfig config) {
    long request = pod.requestMilli();
    long slack = stats.slackMilli();
    long managedRequests = stats.managedRequestsMilli();

    Cap cap = cap(pod, stats, config);
    long hi = cap.hiMilli();
    TargetTrace.Bound bound = cap.bound();

    if (slack <= 0 || managedRequests <= 0) {
      // Nothing to share: raw = request (docs/design/headroom-design.txt §5.4), still quantized within [request, hi] like
      // every target (docs/design/policy.md step 4): 1005m → 1010m, while 1004m stays 1004m (never below).
      long target = quantize(request, request, hi, config.quantumMilli());
      return new TargetTrace(request, false, 0, 0, 0, request, hi, TargetTrace.Bound.NONE, target);
    }
    double proportional = (double) slack * request / managedRequests;
    double floor = Math.min((double) config.minBurstFloorMilli(), (double) slack / stats.managedPods());
    long burst = roundHalfAwayFromZero(Math.max(proportional, floor));
    long raw = Saturating.add(request, burst);
    long clamped = Math.min(Math.max(raw, request), hi);
    long target = quantize(clamped, request, hi, config.quantumMilli());
    return new TargetTrace(request, true, proportional, floor, burst, raw, hi,
        raw > hi ? bound : TargetTrace.Bound.NONE, target);
  }

  /** The effective cap on one pod's target and which cap it is (docs/design/policy.md step 2). */
  record Cap(long hiMilli, TargetTrace.Bound bound) {}

  static Cap cap(PodInput pod, NodeStats stats, PolicyConfig config) {
    long request = pod.requestMilli();
    long hi = stats.allocatableMilli();
    TargetTrace.Bound bound = TargetTrace.Bound.ALLOCATABLE;
    if (config.maxMultiplier() > 0) {
      long byMultiplier = roundHalfAwayFromZero(request * config.maxMultiplier());
      if (byMultiplier < hi) {
        hi = byMultiplier;
        bound = TargetTrace.Bound.MAX_MULTIPLIER;
      }
    }
    if (pod.userCapMilli() > 0 && pod.userCapMilli() < hi) {
      hi = pod.userCapMilli();
      bound = TargetTrace.Bound.USER_CAP;
    }
    return new Cap(Math.max(hi, request), bound); // the request is the hard floor, whatever a cap says
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
    long current = pod.currentLimitMilli();
    if (target == current) {
      return new Decision(pod.key(), target, false, Reason.UNCHANGED);
    }
    if (current <= 0) {
      return new Decision(pod.key(), target, true, Reason.SET);
    }
    boolean grow = target > current;
    double band = grow ? config.deadbandGrow() : config.deadbandShrink();
    boolean apply = (double) Math.abs(target - current) / current >= band;
    Reason reason = !apply ? Reason.WITHIN_DEADBAND : grow ? Reason.GROW : Reason.SHRINK;
    return new Decision(pod.key(), target, apply, reason);
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
