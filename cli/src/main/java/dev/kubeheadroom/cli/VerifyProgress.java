package dev.kubeheadroom.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/** {@code audit --verify}'s progress on stderr: a line each time another 10% of the offsets is read. */
final class VerifyProgress {
  private final PrintWriter err;
  private final long total;
  private final AtomicLong done = new AtomicLong();
  private int reported;

  VerifyProgress(PrintWriter err, long total) {
    this.err = err;
    this.total = Math.max(1, total);
  }

  /** One more record read (called from every worker). */
  void step() {
    long n = done.incrementAndGet();
    if (n * 10 / total > reported) {
      report(n);
    }
  }

  /**
   * Every worker finished: 100%. The total counts offsets, some of which are no records
   * (transaction markers of the exactly-once topology), and the replays stop at the window's end.
   */
  synchronized void finish() {
    if (reported < 10) {
      reported = 10;
      err.printf(Locale.ROOT, "headroom audit --verify: 100%% (%,d records)%n", done.get());
      err.flush();
    }
  }

  private synchronized void report(long n) {
    int tenth = (int) Math.min(10, n * 10 / total);
    if (tenth > reported) {
      reported = tenth;
      err.printf(Locale.ROOT, "headroom audit --verify: %d%% (%,d of %,d records)%n", tenth * 10, n, total);
      err.flush();
    }
  }
}
