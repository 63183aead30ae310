package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.OptionalLong;

/**
 * Kubernetes CPU quantities as integer millicores, exactly (no floating point anywhere).
 *
 * <p>Parsing follows apimachinery's {@code Quantity.MilliValue()}: the value is rounded <em>up</em>
 * to the next whole millicore ({@code "100u"} and {@code "1n"} are 1m). A CPU amount must not be
 * negative. One beyond a {@code long} of millicores is {@link Long#MAX_VALUE}: apimachinery's
 * {@code resource.Quantity} caps numbers larger than it can hold rather than refuse them, so the
 * API server stores such a pod, and Headroom must take it (as a request it cannot manage). {@link #format} gives the canonical form
 * Kubernetes itself prints ({@code 1500m}, {@code 2}), used in patches; {@link #formatMilli} and
 * {@link #formatCores} are the forms Headroom's own annotation and event notes show.
 *
 * <p>The one CPU quantity type of the product: projection, webhook, actuator, preflight and the
 * demo all read and write CPU through it (see DESIGN.md for why it lives here). The API double
 * ({@code kube-double}) keeps its own quantity code on purpose: it stands in for the API server.
 */
public final class CpuQuantity {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final BigDecimal MAX_MILLI = BigDecimal.valueOf(Long.MAX_VALUE);

  private CpuQuantity() {}

  /**
   * Millicores of a CPU quantity string.
   *
   * @throws QuantityFormatException naming the input and the problem, when it is not a valid,
   *     non-negative quantity (one too large for a long of millicores is {@link Long#MAX_VALUE})
   */
  public static long parseMilli(String text) {
    long fast = fastPath(text);
    if (fast >= 0) {
      return fast;
    }
    BigDecimal cores = Quantities.parse(text);
    if (cores.signum() < 0) {
      throw new QuantityFormatException(text, "a CPU amount must not be negative");
    }
    if (cores.signum() == 0) {
      return 0;
    }
    BigDecimal milli = cores.multiply(THOUSAND);
    // precision - scale = digits before the point; > 19 cannot fit, <= 0 means below 1m.
    int integerDigits = milli.precision() - milli.scale();
    if (integerDigits <= 0) {
      return 1;
    }
    if (integerDigits > 19) {
      return Long.MAX_VALUE;
    }
    BigDecimal rounded = milli.setScale(0, RoundingMode.CEILING);
    return rounded.compareTo(MAX_MILLI) > 0 ? Long.MAX_VALUE : rounded.longValue();
  }

  /** Millicores of a CPU quantity string, or empty when it is not valid (see {@link #parseMilli}). */
  public static OptionalLong tryParseMilli(String text) {
    try {
      return OptionalLong.of(parseMilli(text));
    } catch (QuantityFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Millicores of a fabric8 quantity. */
  public static long parseMilli(Quantity quantity) {
    if (quantity == null) {
      throw new QuantityFormatException("null", "no quantity");
    }
    return parseMilli(Quantities.text(quantity));
  }

  /** Millicores of a fabric8 quantity, or empty when it is missing or not valid. */
  public static OptionalLong tryParseMilli(Quantity quantity) {
    return quantity == null ? OptionalLong.empty() : tryParseMilli(Quantities.text(quantity));
  }

  /**
   * Millicores of a CPU quantity read off an object the API server stored; 0 when it is missing or
   * unreadable (which the API server would not have stored), so a caller never throws on it.
   */
  public static long milliOrZero(Quantity quantity) {
    return tryParseMilli(quantity).orElse(0);
  }

  /** The canonical string Kubernetes prints: whole cores as {@code "2"}, else {@code "1500m"}. */
  public static String format(long milli) {
    if (milli < 0) {
      throw new IllegalArgumentException("a CPU amount must not be negative, got " + milli + "m");
    }
    return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
  }

  /** Always millicores, as the status annotation and event notes show them: {@code 8000m}. */
  public static String formatMilli(long milli) {
    return milli + "m";
  }

  /** Cores without trailing zeros, as event notes show node totals: {@code 8}, {@code 8.5}. */
  public static String formatCores(long milli) {
    return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
  }

  /** The same as a fabric8 quantity, for patches built with the fabric8 model. */
  public static Quantity toQuantity(long milli) {
    return new Quantity(format(milli));
  }

  /**
   * The two shapes nearly every real CPU quantity has: {@code "2"} and {@code "250m"} (plain
   * digits, short enough not to overflow). Returns -1 to mean "take the exact path".
   */
  private static long fastPath(String text) {
    if (text == null) {
      return -1;
    }
    int n = text.length();
    boolean milli = n > 1 && text.charAt(n - 1) == 'm';
    int digitsEnd = milli ? n - 1 : n;
    if (digitsEnd == 0 || digitsEnd > 15) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < digitsEnd; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return milli ? value : value * 1000;
  }
}
