package dev.kubeheadroom.policy;

import java.math.BigInteger;

/**
 * Millicore arithmetic that cannot overflow. The API server accepts CPU quantities up to the
 * 64-bit millicore range (two containers of 9000000000000000 cores each are a valid pod), so a sum
 * or product of them must clamp to {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE}) instead of
 * wrapping or throwing: any accepted object yields a decision, never an exception.
 */
public final class Saturating {
  private Saturating() {}

  /** a + b, clamped to the long range. */
  public static long add(long a, long b) {
    long sum = a + b;
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }

  /** a − b, clamped to the long range. */
  public static long subtract(long a, long b) {
    long diff = a - b;
    if (((a ^ b) & (a ^ diff)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return diff;
  }

  /** a · b, clamped to the long range. */
  public static long multiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
      return low;
    }
    return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  /**
   * a · b / c rounded toward zero, computed exactly (the product may exceed 64 bits) and clamped
   * to the long range; {@code c} must not be 0.
   */
  public static long multiplyDivide(long a, long b, long c) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
      return low / c;
    }
    return clamp(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).divide(BigInteger.valueOf(c)));
  }

  private static long clamp(BigInteger value) {
    if (value.bitLength() < 64) {
      return value.longValue();
    }
    return value.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
  }
}
