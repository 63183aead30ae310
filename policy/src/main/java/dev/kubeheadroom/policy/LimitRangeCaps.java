package dev.kubeheadroom.policy;

import java.util.List;

/**
 * A namespace's LimitRange CPU constraints, which the API server's LimitRanger enforces on pod
 * create and on every {@code pods/resize} (a violation is 403 Forbidden): per container
 * {@code max.cpu}, per pod {@code max.cpu} (the pod's summed container limits), and
 * {@code maxLimitRequestRatio.cpu}. Each is 0 when no LimitRange sets it.
 *
 * @param containerMaxMilli the smallest {@code type: Container} {@code max.cpu}
 * @param podMaxMilli the smallest {@code type: Pod} {@code max.cpu}
 * @param ratioMilli the smallest CPU {@code maxLimitRequestRatio} of either type, in thousandths
 *     (1.5 is 1500). Applied to every container, which also keeps the pod's summed limits within
 *     that ratio of its summed requests.
 */
public record LimitRangeCaps(long containerMaxMilli, long podMaxMilli, long ratioMilli) {

  public static final LimitRangeCaps NONE = new LimitRangeCaps(0, 0, 0);

  public LimitRangeCaps {
    if (containerMaxMilli < 0 || podMaxMilli < 0 || ratioMilli < 0) {
      throw new IllegalArgumentException("LimitRange caps must be >= 0");
    }
  }

  /** The largest CPU limit a container with this request may have; 0 = unbounded. */
  public long containerCapMilli(long requestMilli) {
    long cap = containerMaxMilli;
    if (ratioMilli > 0 && requestMilli > 0) {
      long byRatio = ratioCapMilli(requestMilli, ratioMilli);
      cap = cap == 0 ? byRatio : Math.min(cap, byRatio);
    }
    return cap;
  }

  /**
   * The largest pod target whose split across {@code containers} ({@link PodPlanner#split}) keeps
   * every container within {@link #containerCapMilli} and whose sum plus {@code fixedMilli} (limits
   * the split does not set) stays within the pod max; 0 = unbounded. A container's part of a target
   * T is at most ceil(T·r/R) (largest remainder gives a leftover millicore only to a fractional
   * share), so T·r ≤ cap·R bounds it for every T up to the result, whatever quantization later
   * takes off. Never 0 when bounded: a cap the requests already exceed is 1, and the policy's
   * request floor takes over.
   */
  public long podTargetCapMilli(List<ContainerInput> containers, long fixedMilli) {
    if (containerMaxMilli == 0 && podMaxMilli == 0 && ratioMilli == 0) {
      return 0; // no LimitRange caps CPU (most namespaces): what the steps below come to, at once
    }
    long cap = 0;
    if (podMaxMilli > 0) {
      cap = Math.max(1, Saturating.subtract(podMaxMilli, fixedMilli));
    }
    long total = ContainerInput.podRequestMilli(containers);
    if (total <= 0) {
      return cap;
    }
    for (ContainerInput c : containers) {
      long containerCap = c.requestMilli() > 0 ? containerCapMilli(c.requestMilli()) : 0;
      if (containerCap > 0) {
        long byContainer = Math.max(1, Saturating.multiplyDivide(containerCap, total, c.requestMilli()));
        cap = cap == 0 ? byContainer : Math.min(cap, byContainer);
      }
    }
    return cap;
  }

  /**
   * The largest limit L that LimitRanger's {@code limitRequestRatioConstraint}
   * (plugin/pkg/admission/limitranger/admission.go) lets through for this request: it refuses
   * when {@code float64(L) / float64(request) * 1000 > float64(ratioMilli)}. Starts at the exact
   * floor(request · ratio) and steps down while that float test would still refuse it.
   */
  public static long ratioCapMilli(long requestMilli, long ratioMilli) {
    long cap = Saturating.multiplyDivide(requestMilli, ratioMilli, 1000);
    long step = 1;
    while (cap > 1 && refusedByRatio(cap, requestMilli, ratioMilli)) {
      cap = Math.max(1, cap - step);
      step = Math.min(step * 2, Long.MAX_VALUE / 4);
    }
    return Math.max(cap, 1);
  }

  /** LimitRanger's float test, operation for operation. */
  static boolean refusedByRatio(long limitMilli, long requestMilli, long ratioMilli) {
    return (double) limitMilli / (double) requestMilli * 1000 > (double) ratioMilli;
  }

  /** The smaller of two caps where 0 means none. */
  public static long tighter(long a, long b) {
    if (a <= 0) {
      return Math.max(b, 0);
    }
    return b <= 0 ? a : Math.min(a, b);
  }
}
