package dev.kubeheadroom.ops;

/**
 * How many per-pod series ({@code headroom_pod_target_cores}, {@code
 * headroom_pod_applied_limit_cores}) a process exports: none by default, since at 150,000 pods
 * one series per pod per stage is more than most Prometheus servers want; up to {@code max} per
 * family when opted in ({@code --metrics-pod-series}, chart {@code metrics.podSeries}). Pods
 * beyond the bound are counted in {@code headroom_pod_series_overflow_total}, not exported.
 *
 * @param max series per family; 0 = per-pod series off
 */
public record PodSeries(int max) {
  public static final PodSeries OFF = new PodSeries(0);

  public PodSeries {
    if (max < 0) {
      throw new IllegalArgumentException("--metrics-pod-series must be >= 0, got " + max);
    }
  }

  public static PodSeries upTo(int max) {
    return new PodSeries(max);
  }

  public boolean enabled() {
    return max > 0;
  }
}
