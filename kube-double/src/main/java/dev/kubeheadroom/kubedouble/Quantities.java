package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Resource quantities as the API server reads and stores them. Deliberately not the product's
 * {@code CpuQuantity}: the double is the oracle that parser is tested against (DESIGN.md).
 */
final class Quantities {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantities() {}

  /** The amount in base units (cores, bytes); throws {@link IllegalArgumentException} if bad. */
  static BigDecimal amount(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity));
  }

  /**
   * Whole millicores of an amount in cores, rounded up as apimachinery's {@code MilliValue()}
   * (pkg/api/resource/quantity.go) rounds; null is 0.
   */
  static long cpuMilli(BigDecimal cores) {
    return cores == null ? 0 : cores.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
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

  /**
   * A quantity of {@code resource} as the API server prints a computed one ({@code Quantity.String()}
   * of a sum): CPU canonical, other amounts in the largest binary suffix that divides them.
   */
  static String format(String resource, BigDecimal amount) {
    if (resource.equals("cpu") || resource.endsWith(".cpu")) {
      return canonicalCpu(amount.toPlainString());
    }
    if (amount.stripTrailingZeros().scale() > 0) {
      return amount.toPlainString();
    }
    BigInteger whole = amount.toBigIntegerExact();
    String[] suffixes = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    for (int i = 0; i < suffixes.length; i++) {
      BigInteger unit = BigInteger.valueOf(1024).pow(suffixes.length - i);
      if (whole.signum() != 0 && whole.mod(unit).signum() == 0) {
        return whole.divide(unit) + suffixes[i];
      }
    }
    return whole.toString();
  }
}
