package dev.kubeheadroom.cli;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code audit --verify}'s progress across its parallel workers: records read of the total the
 * histories held when they were opened, in whole percent through the command's {@link Progress}
 * (which prints only on a console or with {@code --progress}).
 */
final class VerifyProgress {
  private final Progress shown;
  private final long total;
  private final AtomicLong done = new AtomicLong();

  VerifyProgress(Progress shown, long total) {
    this.shown = shown;
    this.total = Math.max(1, total);
  }

  /** One more record read (called from every worker). */
  void step() {
    long n = done.incrementAndGet();
    if (n % 1_000 == 0) {
      report(n);
    }
  }

  /**
   * Every worker finished: 100%. The total counts offsets, some of which are no records
   * (transaction markers of the exactly-once topology), and the replays stop at the window's end.
   */
  synchronized void finish() {
    shown.done();
  }

  private synchronized void report(long n) {
    shown.fraction(Math.min(n, total), total);
  }
}
