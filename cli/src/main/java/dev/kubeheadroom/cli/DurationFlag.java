package dev.kubeheadroom.cli;

import dev.kubeheadroom.projection.GoDuration;
import java.time.Duration;

/** A duration flag's value: Go's syntax ({@link GoDuration}), a bad one a one-line error naming the flag. */
public final class DurationFlag {
  private DurationFlag() {}

  /** {@code text} parsed; else a {@link UserError} {@code "<flag>: <problem>"}. */
  public static Duration parse(String flag, String text) {
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UserError(flag + ": " + e.getMessage());
    }
  }

  /** {@code text} parsed, or {@code otherwise} when it is absent or blank. */
  static Duration orElse(String flag, String text, Duration otherwise) {
    return text == null || text.isBlank() ? otherwise : parse(flag, text);
  }
}
