package dev.kubeheadroom.cli.throttling;

import java.time.Duration;

/** Durations written as the flags take them ({@code 1h}, {@code 1m30s}, {@code 500ms}). */
final class Windows {
  private Windows() {}

  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    StringBuilder out = new StringBuilder();
    if (s >= 3600) {
      out.append(s / 3600).append('h');
      s %= 3600;
    }
    if (s >= 60) {
      out.append(s / 60).append('m');
      s %= 60;
    }
    if (s > 0 || out.length() == 0) {
      out.append(s).append('s');
    }
    return out.toString();
  }
}
