package dev.kubeheadroom.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;

/**
 * Progress in percent on stderr ({@code headroom audit: 42%}), one line per whole percent, and
 * only when a person is likely watching (a console) or {@code --progress} asked for it: a script
 * reading stderr for errors gets none.
 */
final class Progress {
  /** The option's help, shared by the commands that have one. */
  // picocli formats descriptions: "%%" prints one "%".
  static final String DESCRIPTION = "Print progress in %% on stderr (default: only on a terminal).";

  private final PrintWriter err;
  private final String command;
  private final boolean on;
  private int shown = -1;

  Progress(PrintWriter err, String command, boolean on) {
    this.err = err;
    this.command = command;
    this.on = on;
  }

  /** On when asked, or when the JVM has a console (stdin and stdout are a terminal). */
  static Progress of(PrintWriter err, String command, boolean asked) {
    return new Progress(err, command, asked || System.console() != null);
  }

  /** Reports {@code done / total}; nothing if the whole percent has not changed. */
  void fraction(double done, double total) {
    if (!on || total <= 0) {
      return;
    }
    int percent = (int) Math.max(0, Math.min(100, Math.floor(100 * done / total)));
    if (percent != shown) {
      shown = percent;
      err.printf(Locale.ROOT, "headroom %s: %d%%%n", command, percent);
      err.flush();
    }
  }

  /** How far {@code at} is from {@code from} toward {@code to}. */
  void between(Instant from, Instant at, Instant to) {
    fraction(at.toEpochMilli() - from.toEpochMilli(), to.toEpochMilli() - from.toEpochMilli());
  }

  void done() {
    fraction(1, 1);
  }
}
