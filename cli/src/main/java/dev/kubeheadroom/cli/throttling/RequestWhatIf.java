package dev.kubeheadroom.cli.throttling;

import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * The design's what-if attribution (§8.1, "what ceiling would request X have produced under this
 * node's booking"), turned around: the smallest pod request whose target, under the node's booking
 * now, covers every container's suggested limit. Headroom splits one pod limit by request, so the
 * pod needs {@code max over containers of suggested × (pod request / container request)}: that
 * covers each container while the requests keep today's proportions.
 *
 * @param requestMilli the pod's request now (Σ of its limit-bearing containers')
 * @param limitNeededMilli the pod limit that covers every container's suggestion
 * @param requestNeededMilli the smallest request giving at least that target on this node, the
 *     request now if it already does; null when no request that still fits the node does
 * @param targetAtNeededMilli the target that request gives; null with it
 */
public record RequestWhatIf(long requestMilli, long limitNeededMilli, Long requestNeededMilli,
    Long targetAtNeededMilli) {

  /** A container's request now and its suggested limit. */
  public record Need(long requestMilli, long suggestedMilli) {}

  /**
   * @param requestMilli the pod's request now: Σ of its limit-bearing containers'
   * @param needs the pod's limit-bearing containers with a request and a suggestion
   * @param maxRequestMilli the largest pod request that still fits the node (now + its slack)
   * @param targetFor pod request → Headroom's pod target on this node (the real policy; expected
   *     nondecreasing: then the answer is the smallest, and in any case it reaches the need)
   * @return null when the pod has no request or no container has both a request and a suggestion
   */
  public static RequestWhatIf of(long requestMilli, List<Need> needs, long maxRequestMilli,
      LongUnaryOperator targetFor) {
    long request = requestMilli;
    if (request <= 0 || needs.stream().noneMatch(n -> n.requestMilli() > 0)) {
      return null;
    }
    long limitNeeded = 0;
    for (Need n : needs) {
      if (n.requestMilli() > 0) {
        // ceil(suggested × R / r), in exact arithmetic: millicores × millicores fit a long in practice.
        double share = (double) n.suggestedMilli() * request / n.requestMilli();
        limitNeeded = Math.max(limitNeeded, (long) Math.ceil(share - 1e-9));
      }
    }
    long hi = Math.max(request, maxRequestMilli);
    long atNow = targetFor.applyAsLong(request);
    if (atNow >= limitNeeded) {
      return new RequestWhatIf(request, limitNeeded, request, atNow);
    }
    long atMost = targetFor.applyAsLong(hi);
    if (atMost < limitNeeded) {
      return new RequestWhatIf(request, limitNeeded, null, null);
    }
    long lo = request; // its target falls short; hi's reaches the need: keep it so
    long target = atMost;
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      long t = targetFor.applyAsLong(mid);
      if (t >= limitNeeded) {
        hi = mid;
        target = t;
      } else {
        lo = mid;
      }
    }
    return new RequestWhatIf(request, limitNeeded, hi, target);
  }
}
