package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Exact parsing of the Kubernetes quantity grammar (apimachinery {@code resource.Quantity}):
 *
 * <pre>
 * quantity ::= [+-] number suffix
 * number   ::= digits | digits "." | digits "." digits | "." digits
 * suffix   ::= "" | m | u | n | k | M | G | T | P | E          (decimal SI)
 *            | Ki | Mi | Gi | Ti | Pi | Ei                      (binary SI)
 *            | (e|E) [+-] digits                                (decimal exponent)
 * </pre>
 *
 * Values are {@link BigDecimal}, never double. Used for CPU (via {@link CpuQuantity}) and for the
 * memory request/limit equality check.
 */
final class Quantities {
  /** Longer strings are refused: real quantities are short, and this bounds the work per value. */
  static final int MAX_LENGTH = 128;

  private static final BigDecimal KI = BigDecimal.valueOf(1024);

  private Quantities() {}

  /** The exact value in base units (cores for CPU, bytes for memory); may be negative. */
  static BigDecimal parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new QuantityFormatException(String.valueOf(text), "empty");
    }
    if (text.length() > MAX_LENGTH) {
      throw new QuantityFormatException(
          text.substring(0, 16) + "...", "longer than " + MAX_LENGTH + " characters");
    }
    int i = 0;
    char first = text.charAt(0);
    if (first == '+' || first == '-') {
      i++;
    }
    int numberStart = i;
    i = Decimals.end(text, numberStart);
    if (i == numberStart) {
      throw new QuantityFormatException(text, "no digits");
    }
    BigDecimal value = Decimals.value(text, numberStart, i);
    if (first == '-') {
      value = value.negate();
    }
    String suffix = text.substring(i);
    return switch (suffix) {
      case "" -> value;
      case "n" -> value.scaleByPowerOfTen(-9);
      case "u" -> value.scaleByPowerOfTen(-6);
      case "m" -> value.scaleByPowerOfTen(-3);
      case "k" -> value.scaleByPowerOfTen(3);
      case "M" -> value.scaleByPowerOfTen(6);
      case "G" -> value.scaleByPowerOfTen(9);
      case "T" -> value.scaleByPowerOfTen(12);
      case "P" -> value.scaleByPowerOfTen(15);
      case "E" -> value.scaleByPowerOfTen(18);
      case "Ki" -> value.multiply(KI);
      case "Mi" -> value.multiply(KI.pow(2));
      case "Gi" -> value.multiply(KI.pow(3));
      case "Ti" -> value.multiply(KI.pow(4));
      case "Pi" -> value.multiply(KI.pow(5));
      case "Ei" -> value.multiply(KI.pow(6));
      default -> value.scaleByPowerOfTen(exponent(text, suffix));
    };
  }

  /** {@code e3}, {@code E-2}, {@code e+6}. Huge exponents are clamped: the result is out of range. */
  private static int exponent(String text, String suffix) {
    char e = suffix.charAt(0);
    if ((e != 'e' && e != 'E') || suffix.length() < 2) {
      throw new QuantityFormatException(text, "unknown suffix \"" + suffix + "\"");
    }
    int i = 1;
    boolean negative = false;
    if (suffix.charAt(1) == '+' || suffix.charAt(1) == '-') {
      negative = suffix.charAt(1) == '-';
      i++;
    }
    if (i == suffix.length()) {
      throw new QuantityFormatException(text, "exponent has no digits");
    }
    for (int j = i; j < suffix.length(); j++) {
      if (suffix.charAt(j) < '0' || suffix.charAt(j) > '9') {
        throw new QuantityFormatException(text, "unknown suffix \"" + suffix + "\"");
      }
    }
    BigInteger exp = new BigInteger(suffix.substring(i));
    // |exponent| beyond 1000 only ever over- or underflows; clamping keeps scale arithmetic cheap.
    int clamped = exp.min(BigInteger.valueOf(1000)).intValue();
    return negative ? -clamped : clamped;
  }

  /** The text of a fabric8 quantity (fabric8 splits "250m" into amount "250" and format "m"). */
  static String text(Quantity quantity) {
    String amount = quantity.getAmount() == null ? "" : quantity.getAmount();
    String format = quantity.getFormat() == null ? "" : quantity.getFormat();
    return format.isEmpty() ? amount : amount + format;
  }
}
