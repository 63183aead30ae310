package dev.kubeheadroom.cli.throttling;

import dev.kubeheadroom.cli.UserError;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pod's cAdvisor series over a window, read with three queries: the increase of throttled and
 * of all CFS periods over the window (at its end), and the usage rate over each step of it. Each
 * is summed by {@code container}: cAdvisor keeps one series per cgroup, so a container restarted
 * in the window has two. The pod's own cgroup ({@code container=""}) and the pause container
 * ({@code container="POD"}, older kubelets) are left out.
 */
public final class ThrottlingQueries {
  static final String THROTTLED = "container_cpu_cfs_throttled_periods_total";
  static final String PERIODS = "container_cpu_cfs_periods_total";
  static final String USAGE = "container_cpu_usage_seconds_total";

  private ThrottlingQueries() {}

  /**
   * Every container of {@code namespace/pod} Prometheus has usage for over
   * {@code (end - window, end]}, by name.
   *
   * @throws UserError when Prometheus has no usage series for the pod in the window
   */
  public static Map<String, ContainerSeries> read(PrometheusClient prometheus, String url, String namespace,
      String pod, Instant end, Duration window, Duration step) {
    String selector = selector(namespace, pod);
    Map<String, Double> throttled = byContainer(prometheus.instant(increase(THROTTLED, selector, window), end));
    Map<String, Double> periods = byContainer(prometheus.instant(increase(PERIODS, selector, window), end));
    // Steps that tile the window: each rate covers (t - step, t], the first one ending a step in.
    Map<String, List<Double>> usage = new TreeMap<>();
    for (PrometheusClient.Range r : prometheus.range(rate(USAGE, selector, step), end.minus(window).plus(step), end,
        step)) {
      String container = r.labels().get("container");
      if (container != null && !r.values().isEmpty()) {
        usage.computeIfAbsent(container, c -> new ArrayList<>()).addAll(r.values());
      }
    }
    if (usage.isEmpty()) {
      throw new UserError("Prometheus at " + url + " has no " + USAGE + selector + " over the last "
          + Windows.format(window) + ": is cAdvisor (the kubelet's /metrics/cadvisor) scraped, with its"
          + " namespace, pod and container labels, and did the pod run then?");
    }
    Map<String, ContainerSeries> series = new TreeMap<>();
    for (Map.Entry<String, List<Double>> e : usage.entrySet()) {
      String c = e.getKey();
      series.put(c, new ContainerSeries(c, throttled.get(c), periods.get(c), e.getValue()));
    }
    return series;
  }

  static String selector(String namespace, String pod) {
    return "{namespace=\"" + escape(namespace) + "\",pod=\"" + escape(pod) + "\",container!=\"\",container!=\"POD\"}";
  }

  static String increase(String metric, String selector, Duration window) {
    return "sum by (container) (increase(" + metric + selector + "[" + window.toMillis() + "ms]))";
  }

  static String rate(String metric, String selector, Duration step) {
    return "sum by (container) (rate(" + metric + selector + "[" + step.toMillis() + "ms]))";
  }

  /** A PromQL double-quoted string's content (label values Kubernetes allows need no escaping; be safe). */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static Map<String, Double> byContainer(List<PrometheusClient.Sample> samples) {
    Map<String, Double> values = new TreeMap<>();
    for (PrometheusClient.Sample s : samples) {
      String container = s.labels().get("container");
      if (container != null) {
        values.merge(container, s.value(), Double::sum);
      }
    }
    return values;
  }
}
