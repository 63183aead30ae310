package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/** Resource quantities as the API server reads and stores them. */
final class Quantities {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantities() {}

  /** The amount in base units (cores, bytes); throws {@link IllegalArgumentException} if bad. */
  static BigDecimal amount(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity));
  }

  static boolean isValid(String quantity) {
    try {
      amount(quantity);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * The canonical form the API server stores a CPU quantity in: whole cores without a suffix,
   * otherwise millicores ({@code "0.5"} → {@code "500m"}, {@code "2000m"} → {@code "2"}). Amounts
   * finer than a millicore are kept as given.
   */
  static String canonicalCpu(String quantity) {
    BigDecimal cores = amount(quantity);
    if (cores.stripTrailingZeros().scale() <= 0) {
      return cores.toBigIntegerExact().toString();
    }
    BigDecimal milli = cores.multiply(THOUSAND);
    if (milli.stripTrailingZeros().scale() <= 0) {
      return milli.toBigIntegerExact() + "m";
    }
    return quantity;
  }
}
