package dev.kubeheadroom.policy;

import java.math.BigInteger;
import java.util.Collection;

/**
 * How far one gang member's own node would lift it: its own target over its request, kept as the
 * two integers so that comparing and applying it is exact (docs/design/headroom-design.txt
 * §11.6). Equal ratios written differently (2000/1000, 4000/2000) compare equal and give the same
 * limits, so the gang's ceiling does not depend on which member it came from.
 *
 * @param targetMilli the member's target on its own node (request ≤ target)
 * @param requestMilli the member's request; positive
 */
public record GangRatio(long targetMilli, long requestMilli) implements Comparable<GangRatio> {

  public GangRatio {
    if (requestMilli <= 0 || targetMilli < requestMilli) {
      throw new IllegalArgumentException(
          "need 0 < request <= target, got " + targetMilli + "/" + requestMilli);
    }
  }

  /** target/request vs the other's, exactly: t1·r2 vs t2·r1. */
  @Override
  public int compareTo(GangRatio other) {
    return compareProducts(targetMilli, other.requestMilli, other.targetMilli, requestMilli);
  }

  /** The lowest ratio of {@code ratios}, or null when there is none. Order does not matter. */
  public static GangRatio lowest(Collection<GangRatio> ratios) {
    GangRatio low = null;
    for (GangRatio r : ratios) {
      if (low == null || r.compareTo(low) < 0) {
        low = r;
      }
    }
    return low;
  }

  /** floor(request · target / this request): a request scaled by this ratio. */
  long scale(long request) {
    if (fits(request, targetMilli)) {
      return request * targetMilli / requestMilli; // the common case: no BigInteger
    }
    return BigInteger.valueOf(request).multiply(BigInteger.valueOf(targetMilli))
        .divide(BigInteger.valueOf(requestMilli)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
  }

  private static int compareProducts(long a, long b, long c, long d) {
    if (fits(a, b) && fits(c, d)) {
      return Long.compare(a * b, c * d);
    }
    return BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
        .compareTo(BigInteger.valueOf(c).multiply(BigInteger.valueOf(d)));
  }

  /** a·b fits in a long (both are non-negative). */
  private static boolean fits(long a, long b) {
    return Math.multiplyHigh(a, b) == 0 && a * b >= 0;
  }
}
