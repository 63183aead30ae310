package dev.kubeheadroom.cli.throttling;

import java.util.List;

/**
 * The throttling what-if's arithmetic (docs/runbook.md, "What limit would have avoided the
 * throttling"), a pure function of what Prometheus held and the limits the pod has.
 *
 * <p>"The limit that would have avoided most throttling" is the p99 of the container's usage rate
 * over the window's steps (each rate averaged over one step, 1 minute by default), rounded to the
 * millicore and then up to the policy's quantum: a limit there would have covered the usage of at
 * least 99% of the steps. Usage is what the container got, not what it wanted: while it was
 * throttled its usage was cut at the limit, so for a throttled container the suggestion is a lower
 * bound ({@link ContainerWhatIf#lowerBound}).
 */
public final class ThrottleWhatIf {
  /** The quantile of the step usage the suggestion covers. */
  public static final double QUANTILE = 0.99;
  /** A container throttled in at least this share of its CFS periods counts as throttled. */
  public static final double THROTTLED_RATIO = 0.01;

  /** A throttled container whose p99 is at least this share of its limit was pinned at the limit. */
  public static final double AT_LIMIT_SHARE = 0.9;

  private ThrottleWhatIf() {}

  /**
   * One container's what-if.
   *
   * @param limitMilli its CPU limit now, null for none
   * @param targetMilli Headroom's target for it now, null if the pod is not managed
   * @param quantumMilli the policy's quantum ({@code <= 0}: none, millicores)
   */
  public static ContainerWhatIf assess(ContainerSeries series, Long limitMilli, Long targetMilli, long quantumMilli) {
    Double ratio = ratio(series.throttledPeriods(), series.periods());
    boolean throttled = ratio != null && ratio >= THROTTLED_RATIO;
    Usage usage = usage(series.usageCores());
    Long suggested = usage == null ? null : roundUp(usage.p99Milli(), quantumMilli);
    Verdict verdict;
    if (usage == null) {
      verdict = Verdict.NO_DATA;
    } else if (limitMilli == null) {
      verdict = Verdict.NO_LIMIT;
    } else if (suggested > limitMilli) {
      verdict = Verdict.LIMIT_TOO_LOW;
    } else if (throttled) {
      verdict = usage.p99Milli() >= AT_LIMIT_SHARE * limitMilli ? Verdict.AT_LIMIT : Verdict.THROTTLED_IN_BURSTS;
    } else {
      verdict = Verdict.COVERED;
    }
    return new ContainerWhatIf(series.container(), ratio, usage, suggested, throttled && usage != null,
        limitMilli, targetMilli, verdict.wireName());
  }

  /**
   * Throttled periods over all periods, in [0, 1]; null when either is missing or no period ran.
   * Clamped because Prometheus extrapolates each {@code increase} on its own.
   */
  static Double ratio(Double throttledPeriods, Double periods) {
    if (throttledPeriods == null || periods == null || !Double.isFinite(throttledPeriods)
        || !Double.isFinite(periods) || periods <= 0) {
      return null;
    }
    return Math.min(1.0, Math.max(0.0, throttledPeriods / periods));
  }

  /** Nearest-rank quantiles of the finite rates (in cores), in millicores; null when there are none. */
  static Usage usage(List<Double> cores) {
    long[] milli = cores.stream().filter(c -> c != null && Double.isFinite(c))
        .mapToLong(c -> Math.round(Math.max(0.0, c) * 1000)).sorted().toArray();
    if (milli.length == 0) {
      return null;
    }
    return new Usage(quantile(milli, 0.50), quantile(milli, 0.95), quantile(milli, QUANTILE),
        milli[milli.length - 1], milli.length);
  }

  /** The nearest-rank quantile of sorted values: the smallest with at least {@code q} of them at or below it. */
  static long quantile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  /** {@code milli} rounded up to a multiple of {@code quantum} (saturating); as is when there is no quantum. */
  static long roundUp(long milli, long quantumMilli) {
    if (quantumMilli <= 1) {
      return milli;
    }
    long steps = milli / quantumMilli + (milli % quantumMilli == 0 ? 0 : 1);
    return steps > Long.MAX_VALUE / quantumMilli ? Long.MAX_VALUE : steps * quantumMilli;
  }

  /** Σ of the given values, null if none; saturating. */
  static Long sum(List<Long> values) {
    long total = 0;
    boolean any = false;
    for (Long v : values) {
      if (v != null) {
        any = true;
        total = total > Long.MAX_VALUE - v ? Long.MAX_VALUE : total + v;
      }
    }
    return any ? total : null;
  }
}
