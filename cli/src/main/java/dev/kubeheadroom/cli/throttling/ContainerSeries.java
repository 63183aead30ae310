package dev.kubeheadroom.cli.throttling;

import java.util.List;

/**
 * What Prometheus holds for one container over the window (cAdvisor's series, summed over the
 * container's cgroups: a restarted container has one series per incarnation).
 *
 * @param container the {@code container} label
 * @param throttledPeriods {@code increase(container_cpu_cfs_throttled_periods_total[window])}, or
 *     null when there is no such series (a container without a CPU limit has no CFS quota)
 * @param periods {@code increase(container_cpu_cfs_periods_total[window])}, or null likewise
 * @param usageCores {@code rate(container_cpu_usage_seconds_total[step])} at each step of the
 *     window, in cores; empty when there is no usage series
 */
public record ContainerSeries(String container, Double throttledPeriods, Double periods, List<Double> usageCores) {
  public ContainerSeries {
    usageCores = usageCores == null ? List.of() : List.copyOf(usageCores);
  }
}
