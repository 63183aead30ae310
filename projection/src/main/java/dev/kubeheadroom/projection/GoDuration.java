package dev.kubeheadroom.projection;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Go's {@code time.ParseDuration} syntax, which Kubernetes uses for {@code metav1.Duration} fields:
 * an optional sign, then one or more {@code <decimal><unit>} terms ({@code 2s}, {@code 500ms},
 * {@code 1m30s}, {@code 1.5h}); units {@code ns us µs μs ms s m h}; a bare {@code 0} is allowed.
 * Exact (BigDecimal); fractional nanoseconds are truncated and the total must fit in int64 nanos,
 * as in Go.
 */
public final class GoDuration {
  private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

  private GoDuration() {}

  /**
   * @throws IllegalArgumentException with a short problem description when {@code text} is not a
   *     Go duration
   */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    int i = 0;
    int n = text.length();
    boolean negative = false;
    if (text.charAt(0) == '+' || text.charAt(0) == '-') {
      negative = text.charAt(0) == '-';
      i++;
    }
    if (text.substring(i).equals("0")) {
      return Duration.ZERO;
    }
    if (i == n) {
      throw new IllegalArgumentException("not a duration (like 2s, 500ms, 1m30s)");
    }
    BigDecimal total = BigDecimal.ZERO;
    while (i < n) {
      int start = i;
      i = Decimals.end(text, start);
      if (i == start) {
        throw new IllegalArgumentException("not a duration (like 2s, 500ms, 1m30s)");
      }
      int unitStart = i;
      while (i < n && !(text.charAt(i) >= '0' && text.charAt(i) <= '9') && text.charAt(i) != '.') {
        i++;
      }
      String unit = text.substring(unitStart, i);
      long unitNanos = switch (unit) {
        case "ns" -> 1L;
        case "us", "µs", "μs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "h" -> 3_600_000_000_000L;
        case "" -> throw new IllegalArgumentException("missing unit (ns, us, ms, s, m, h)");
        default -> throw new IllegalArgumentException(
            "unknown unit \"" + unit + "\" (ns, us, ms, s, m, h)");
      };
      total = total.add(Decimals.value(text, start, unitStart).multiply(BigDecimal.valueOf(unitNanos)));
      if (total.compareTo(MAX_NANOS) > 0) {
        throw new IllegalArgumentException("out of range");
      }
    }
    long nanos = total.setScale(0, RoundingMode.DOWN).longValueExact();
    return Duration.ofNanos(negative ? -nanos : nanos);
  }

  /** Go's {@code Duration.String()} form for whole milliseconds and above: {@code 1m30s}, {@code 500ms}. */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (d.isNegative()) {
      sb.append('-');
      d = d.negated();
    }
    if (d.compareTo(Duration.ofSeconds(1)) < 0) {
      long nanos = d.toNanos();
      if (nanos % 1_000_000 == 0) {
        return sb.append(nanos / 1_000_000).append("ms").toString();
      }
      if (nanos % 1_000 == 0) {
        return sb.append(nanos / 1_000).append("µs").toString();
      }
      return sb.append(nanos).append("ns").toString();
    }
    long hours = d.toHours();
    long minutes = d.toMinutesPart();
    BigDecimal seconds = BigDecimal.valueOf(d.toSecondsPart())
        .add(BigDecimal.valueOf(d.toNanosPart(), 9)).stripTrailingZeros();
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      sb.append(minutes).append('m');
    }
    return sb.append(seconds.toPlainString()).append('s').toString();
  }
}
