package dev.kubeheadroom.schemas;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Validation shared by the records' compact constructors. */
final class Require {
  private Require() {}

  static String text(String value, String field) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }

  static long nonNegative(long value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + value);
    }
    return value;
  }

  static <T> List<T> list(List<T> value) {
    return value == null ? List.of() : List.copyOf(value);
  }

  /** Sorted, so equal maps serialize to equal bytes. */
  static Map<String, String> map(Map<String, String> value) {
    return value == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(value));
  }
}
