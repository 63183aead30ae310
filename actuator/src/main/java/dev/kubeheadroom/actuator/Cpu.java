package dev.kubeheadroom.actuator;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** CPU quantities in the forms the API server, the annotation and the event note use. */
final class Cpu {
  private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);

  private Cpu() {}

  /** The API server's canonical form: whole cores without a suffix ({@code 2}), else {@code 1500m}. */
  static String canonical(long milli) {
    return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
  }

  /** Always millicores, as the status annotation and event note show them: {@code 8000m}. */
  static String milli(long milli) {
    return milli + "m";
  }

  /** Cores without trailing zeros: {@code 8}, {@code 8.5}, {@code 0.25}. */
  static String cores(long milli) {
    return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
  }

  /**
   * A quantity in millicores (rounded up, as the API server rounds CPU); null is 0. Clamped to
   * the long range: a quantity beyond it (which the API server accepts) must not throw here.
   */
  static long toMilli(Quantity quantity) {
    if (quantity == null) {
      return 0;
    }
    BigDecimal milli = quantity.getNumericalAmount().movePointRight(3).setScale(0, RoundingMode.UP);
    if (milli.compareTo(MAX) > 0) {
      return Long.MAX_VALUE;
    }
    return milli.compareTo(MIN) < 0 ? Long.MIN_VALUE : milli.longValue();
  }
}
