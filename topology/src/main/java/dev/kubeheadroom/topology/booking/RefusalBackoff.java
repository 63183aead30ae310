package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.OutcomeResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.CRC32;

/**
 * How long a pod waits after its n-th consecutive refusal (topology DESIGN.md "Refusal backoff"):
 * {@code min(base × 2^(n−1), cap)} less a jitter of up to a fifth, with base = the config's
 * {@code backoffPeriod} (60 s by default) and cap = {@value #CAP_MULTIPLE} × base (16 min). The
 * jitter comes from a hash of the pod's uid and n, never a random source, so a replay backs off
 * exactly as the live run did while pods refused together do not come back together. It only
 * shortens the wait, so the first wait never exceeds {@code backoffPeriod}, as it always did.
 */
public final class RefusalBackoff {
  /** The cap as a multiple of the base: 2^4, reached at the fifth consecutive refusal. */
  public static final int CAP_MULTIPLE = 16;
  /** The jitter takes off up to 1/JITTER_DIVISOR of the wait. */
  static final int JITTER_DIVISOR = 5;

  private RefusalBackoff() {}

  /**
   * Whether the outcome refuses the target in a way a retry would likely meet again. GONE is
   * not one: the pod was deleted or replaced (a new uid), so there is nothing to back off.
   */
  public static boolean refuses(OutcomeResult result) {
    return switch (result) {
      case INFEASIBLE, QUOTA_DENIED, CONFLICT, ERROR, REJECTED -> true;
      case APPLIED, DRY_RUN, DEFERRED, GONE -> false;
    };
  }

  /** The wait after the {@code attempt}-th consecutive refusal (attempt ≥ 1; 0 reads as 1). */
  public static Duration delay(String uid, int attempt, Duration base) {
    int n = Math.max(1, attempt);
    long baseMs = Math.max(0, base.toMillis());
    long multiple = n > 5 ? CAP_MULTIPLE : Math.min(CAP_MULTIPLE, 1L << (n - 1));
    long nominal = baseMs > Long.MAX_VALUE / CAP_MULTIPLE ? Long.MAX_VALUE : baseMs * multiple;
    long jitter = (long) (nominal / JITTER_DIVISOR * unit(uid, n));
    return Duration.ofMillis(nominal - jitter);
  }

  /** When the entry's backoff ends, or null when it is not in one. */
  public static Instant until(PodEntry entry, Duration base) {
    if (entry.backoffSince() == null) {
      return null;
    }
    return entry.backoffSince().plus(delay(entry.pod().uid(), entry.refusals(), base));
  }

  /** A fraction in [0, 1) from the uid and the attempt: stable across runs and JVMs. */
  static double unit(String uid, int attempt) {
    CRC32 crc = new CRC32();
    crc.update((uid + "#" + attempt).getBytes(StandardCharsets.UTF_8));
    return (crc.getValue() & 0xFFFF) / 65536.0;
  }
}
