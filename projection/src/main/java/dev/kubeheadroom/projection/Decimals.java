package dev.kubeheadroom.projection;

import java.math.BigDecimal;

/**
 * The unsigned decimal that Go durations ({@link GoDuration}) and Kubernetes quantities
 * ({@link Quantities}) both start a term with: digits with at most one {@code .}, at least one
 * digit ({@code 5}, {@code 5.}, {@code .5}, {@code 1.25}).
 */
final class Decimals {
  private Decimals() {}

  /** Where the decimal starting at {@code start} ends; {@code start} itself when it holds no digit. */
  static int end(String text, int start) {
    boolean dot = false;
    int digits = 0;
    int i = start;
    for (; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits++;
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        break;
      }
    }
    return digits == 0 ? start : i;
  }

  /** The value of {@code text[start, end)}, a decimal {@link #end} found ({@code 5.} reads as 5). */
  static BigDecimal value(String text, int start, int end) {
    String number = text.substring(start, end);
    return new BigDecimal(number.endsWith(".") ? number + "0" : number);
  }
}
