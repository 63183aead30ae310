package dev.kubeheadroom.projection;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The leaf values of a HeadroomConfig spec ({@link HeadroomConfigSpec}), each read by Jackson from
 * what the object holds (a string, a number, a boolean, a list or a map) and refused, with a
 * {@link Problem}, when it is not the field's form: {@code must be true or false, got "yes"}. The
 * binder ({@link SpecBinding}) puts the field's path in front. Bounds that differ by field (at
 * most 100, at least 1) are the validation's, in {@link ConfigProjection}.
 */
final class SpecValues {
  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)");

  private SpecValues() {}

  /** A value refused; {@code subPath} is where inside the field ({@code [1]}), or empty. */
  static final class Problem extends IllegalArgumentException {
    final String subPath;

    Problem(String subPath, String message) {
      super(message);
      this.subPath = subPath;
    }

    Problem(String message) {
      this("", message);
    }
  }

  record Flag(boolean value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Flag of(Object raw) {
      return new Flag(as(raw, Boolean.class, "true or false"));
    }
  }

  record Text(String value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Text of(Object raw) {
      return new Text(as(raw, String.class, "a string"));
    }
  }

  /** A list of strings ({@code excludedNamespaces}, {@code values}, {@code ownerKinds}). */
  record Names(List<String> value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Names of(Object raw) {
      if (!(raw instanceof List<?> list)) {
        throw new Problem("must be a list of strings, got " + ConfigProjection.quote(raw));
      }
      List<String> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String s)) {
          throw new Problem("[" + i + "]", "must be a string, got " + ConfigProjection.quote(list.get(i)));
        }
        out.add(s);
      }
      return new Names(List.copyOf(out));
    }
  }

  /** A CPU quantity, as a string or a YAML number: {@code "1"}, {@code "10m"}, {@code 0.5}. */
  record Cpu(long milli, String text) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Cpu of(Object raw) {
      String text = scalarText(raw, "a CPU quantity");
      try {
        return new Cpu(CpuQuantity.parseMilli(text), text);
      } catch (QuantityFormatException e) {
        throw new Problem("must be a non-negative CPU quantity (like \"1\" or \"10m\"), got "
            + ConfigProjection.quote(text));
      }
    }
  }

  /**
   * A decimal string or YAML number ({@code "2.5"}); in a pool also {@code Unlimited} (value null),
   * which the validation admits only there.
   */
  record Decimal(String text, BigDecimal value) {
    static final String UNLIMITED = "Unlimited";

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Decimal of(Object raw) {
      String text = scalarText(raw, "a decimal string");
      if (UNLIMITED.equals(text)) {
        return new Decimal(text, null);
      }
      if (!DECIMAL.matcher(text).matches()) {
        throw new Problem("must be a decimal number, got " + ConfigProjection.quote(text));
      }
      return new Decimal(text, decimal(text));
    }
  }

  /** A number greater than 0, as a string or a YAML number (the rate limits). */
  record Positive(double value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Positive of(Object raw) {
      String text = scalarText(raw, "a number");
      if (!DECIMAL.matcher(text).matches() || decimal(text).signum() <= 0) {
        throw new Problem("must be a number greater than 0, got " + ConfigProjection.quote(text));
      }
      return new Positive(decimal(text).doubleValue());
    }
  }

  /** A whole YAML number; its bounds are the field's. */
  record Whole(long value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Whole of(Object raw) {
      if (raw instanceof Number n && isWhole(n)) {
        return new Whole(new BigDecimal(n.toString()).longValueExact());
      }
      throw new Problem("must be an integer, got " + ConfigProjection.quote(raw));
    }
  }

  /** An integer percent from 0 to 100. */
  record Percent(int value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Percent of(Object raw) {
      if (!(raw instanceof Number n && isWhole(n))) {
        throw new Problem("must be an integer percent from 0 to 100, got " + ConfigProjection.quote(raw));
      }
      long value = new BigDecimal(n.toString()).longValueExact();
      if (value < 0 || value > 100) {
        throw new Problem("must be from 0 to 100, got " + ConfigProjection.quote(raw));
      }
      return new Percent((int) value);
    }
  }

  /** A non-negative duration in Go syntax ({@link GoDuration}): {@code 2s}, {@code 1m30s}. */
  record GoTime(Duration value) {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static GoTime of(Object raw) {
      if (!(raw instanceof String text)) {
        throw new Problem("must be a duration string (like 2s, 500ms, 1m30s), got " + ConfigProjection.quote(raw));
      }
      Duration d;
      try {
        d = GoDuration.parse(text);
      } catch (IllegalArgumentException e) {
        throw new Problem(e.getMessage() + ", got " + ConfigProjection.quote(text));
      }
      if (d.isNegative()) {
        throw new Problem("must not be negative, got " + ConfigProjection.quote(text));
      }
      return new GoTime(d);
    }
  }

  private static <T> T as(Object raw, Class<T> type, String form) {
    if (type.isInstance(raw)) {
      return type.cast(raw);
    }
    throw new Problem("must be " + form + ", got " + ConfigProjection.quote(raw));
  }

  private static String scalarText(Object raw, String what) {
    if (raw instanceof String s) {
      return s;
    }
    if (raw instanceof Number n && !(n instanceof Double d && !Double.isFinite(d))) {
      return new BigDecimal(n.toString()).toPlainString();
    }
    throw new Problem("must be " + what + ", got " + ConfigProjection.quote(raw));
  }

  private static BigDecimal decimal(String text) {
    return new BigDecimal(text.endsWith(".") ? text + "0" : text);
  }

  private static boolean isWhole(Number n) {
    try {
      new BigDecimal(n.toString()).longValueExact();
      return true;
    } catch (ArithmeticException | NumberFormatException e) {
      return false;
    }
  }
}
