package dev.kubeheadroom.cli.throttling;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The throttling what-if of one pod ({@code explain --prometheus}): per container, next to the
 * limit it has and Headroom's target for it now. Also the {@code throttling} field of {@code
 * explain -o json|yaml}.
 *
 * @param suggestion how {@link ContainerWhatIf#suggestedMilli} is defined, in words
 * @param podSuggestedMilli Σ of the limit-bearing containers' suggestions (the pod-level figure
 *     Headroom's limit is: it splits one pod target across the containers by request)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WhatIfReport(String prometheus, Instant from, Instant to, String window, String step,
    long quantumMilli, String suggestion, List<ContainerWhatIf> containers, Long podSuggestedMilli,
    Long podLimitMilli, Long podTargetMilli, RequestWhatIf request) {

  /**
   * The what-if of {@code pod} from what Prometheus held ({@code series}, by container name).
   * Rows: the pod's containers in spec order (init containers only when Prometheus has usage for
   * them), then any container Prometheus knows and the pod no longer names.
   *
   * @param podTargetMilli Headroom's target for the pod now, null when it does not manage it
   */
  public static WhatIfReport of(PodSnapshot pod, Long podTargetMilli, long quantumMilli,
      Map<String, ContainerSeries> series, String prometheus, Instant to, Duration window, Duration step) {
    Map<String, ContainerSeries> left = new LinkedHashMap<>(series);
    Map<String, Long> targets = targets(pod, podTargetMilli);
    List<ContainerWhatIf> rows = new ArrayList<>();
    List<Long> suggested = new ArrayList<>();
    Long podLimit = 0L;
    for (ContainerSnapshot c : pod.containers()) {
      ContainerSeries s = left.remove(c.name());
      if (s == null && !c.limitBearing()) {
        continue;
      }
      ContainerWhatIf row = ThrottleWhatIf.assess(s == null ? new ContainerSeries(c.name(), null, null, List.of()) : s,
          c.cpuLimitMilli() == 0 ? null : c.cpuLimitMilli(), targets.get(c.name()), quantumMilli);
      rows.add(row);
      if (c.limitBearing()) {
        suggested.add(row.suggestedMilli());
        if (c.cpuRequestMilli() > 0) { // the pod's limit as explain shows it: Σ over requesting containers
          podLimit = podLimit == null || row.limitMilli() == null ? null : ThrottleWhatIf.sum(List.of(podLimit,
              row.limitMilli()));
        }
      }
    }
    for (ContainerSeries s : left.values()) {
      rows.add(ThrottleWhatIf.assess(s, null, null, quantumMilli));
    }
    String stepText = Windows.format(step);
    long quantum = Math.max(1, quantumMilli);
    return new WhatIfReport(prometheus, to.minus(window), to, Windows.format(window), stepText, quantum,
        "the p99 of the " + stepText + " usage rate, rounded up to the " + quantum + "m quantum",
        rows, ThrottleWhatIf.sum(suggested), podLimit, podTargetMilli, null);
  }

  /** This report with the request that would cover the suggestions on this node. */
  public WhatIfReport withRequest(RequestWhatIf value) {
    return new WhatIfReport(prometheus, from, to, window, step, quantumMilli, suggestion, containers,
        podSuggestedMilli, podLimitMilli, podTargetMilli, value);
  }

  /** Each limit-bearing container of {@code pod} with a request and a suggestion. */
  public List<RequestWhatIf.Need> needs(PodSnapshot pod) {
    List<RequestWhatIf.Need> needs = new ArrayList<>();
    for (ContainerSnapshot c : pod.limitBearingContainers()) {
      containers.stream().filter(r -> r.container().equals(c.name()) && r.suggestedMilli() != null).findFirst()
          .filter(r -> c.cpuRequestMilli() > 0)
          .ifPresent(r -> needs.add(new RequestWhatIf.Need(c.cpuRequestMilli(), r.suggestedMilli())));
    }
    return needs;
  }

  /** The pod target split across the containers by request, as the actuator would patch it. */
  private static Map<String, Long> targets(PodSnapshot pod, Long podTargetMilli) {
    Map<String, Long> targets = new LinkedHashMap<>();
    if (podTargetMilli == null) {
      return targets;
    }
    List<ContainerSnapshot> bearing = pod.limitBearingContainers();
    List<ContainerInput> inputs = bearing.stream().map(c -> new ContainerInput(c.name(), c.cpuRequestMilli(),
        c.cpuLimitMilli(), c.memoryGuaranteed())).toList();
    long[] parts = PodPlanner.split(podTargetMilli, inputs);
    for (int i = 0; i < parts.length; i++) {
      if (bearing.get(i).cpuRequestMilli() > 0) { // a container without a request keeps its limit
        targets.put(bearing.get(i).name(), parts[i]);
      }
    }
    return targets;
  }

  /** The what-if for a person: one row per container, then what the figures mean. */
  public void print(PrintWriter out) {
    out.printf(Locale.ROOT, "Throttling what-if, %s to %s (%s in %s steps; Prometheus %s):%n", from, to, window,
        step, prometheus);
    String format = "  %-20s %9s %7s %7s %7s %7s %10s %7s %7s  %s%n";
    out.printf(Locale.ROOT, format, "CONTAINER", "THROTTLED", "P50", "P95", "P99", "MAX", "SUGGESTED", "LIMIT",
        "TARGET", "VERDICT");
    boolean anyLowerBound = false;
    for (ContainerWhatIf c : containers) {
      anyLowerBound |= c.lowerBound();
      Usage u = c.usage();
      out.printf(Locale.ROOT, format, c.container(),
          c.throttledRatio() == null ? "-" : String.format(Locale.ROOT, "%.1f%%", c.throttledRatio() * 100),
          u == null ? "-" : cpu(u.p50Milli()), u == null ? "-" : cpu(u.p95Milli()),
          u == null ? "-" : cpu(u.p99Milli()), u == null ? "-" : cpu(u.maxMilli()),
          c.suggestedMilli() == null ? "-" : (c.lowerBound() ? "≥" : "") + cpu(c.suggestedMilli()),
          c.limitMilli() == null ? "none" : cpu(c.limitMilli()),
          c.targetMilli() == null ? "-" : cpu(c.targetMilli()), c.verdict());
    }
    out.printf(Locale.ROOT, "  SUGGESTED is %s: a limit there covers the usage of 99%% of the steps.%n", suggestion);
    if (anyLowerBound) {
      out.printf(Locale.ROOT, "  ≥: throttled in %.0f%% or more of its CFS periods, its usage was cut at its limit:"
          + " it wanted more than it got.%n", ThrottleWhatIf.THROTTLED_RATIO * 100);
    }
    if (containers.stream().anyMatch(c -> Verdict.AT_LIMIT.wireName().equals(c.verdict()))) {
      out.printf(Locale.ROOT, "  at-limit: throttled while using its whole limit; its demand above the limit does"
          + " not show in its usage: raise the request and look again.%n");
    }
    if (containers.stream().anyMatch(c -> Verdict.THROTTLED_IN_BURSTS.wireName().equals(c.verdict()))) {
      out.printf(Locale.ROOT, "  throttled-in-bursts: throttled although its %s usage fits the limit; the bursts are"
          + " shorter than a step (CFS enforces per 100 ms): look with a shorter --step.%n", step);
    }
    if (podSuggestedMilli != null) {
      out.printf(Locale.ROOT, "  Pod: suggested %s in total, limit %s, Headroom's target now %s. Headroom splits one"
          + " pod limit by request: a larger request raises it.%n", cpu(podSuggestedMilli),
          podLimitMilli == null ? "none" : cpu(podLimitMilli), podTargetMilli == null ? "- (not managed)"
              : cpu(podTargetMilli));
    }
    if (request != null) {
      printRequest(out);
    }
    out.flush();
  }

  private void printRequest(PrintWriter out) {
    if (request.requestNeededMilli() == null) {
      out.printf(Locale.ROOT, "  Request: no pod request that fits this node gives the %s limit that covers every"
          + " SUGGESTED (requests in today's proportions): the node is too booked; a less-booked pool is the way.%n",
          cpu(request.limitNeededMilli()));
    } else if (request.requestNeededMilli() == request.requestMilli()) {
      out.printf(Locale.ROOT, "  Request: the pod's request now (%s) gives a target of %s, enough for the %s that"
          + " covers every SUGGESTED.%n", cpu(request.requestMilli()), cpu(request.targetAtNeededMilli()),
          cpu(request.limitNeededMilli()));
    } else {
      out.printf(Locale.ROOT, "  Request: a pod request of %s (now %s, split in today's proportions) gives a target"
          + " of %s on this node now, covering every SUGGESTED (%s needed).%n", cpu(request.requestNeededMilli()),
          cpu(request.requestMilli()), cpu(request.targetAtNeededMilli()), cpu(request.limitNeededMilli()));
    }
  }

  private static String cpu(long milli) {
    return ReportWriter.cpu(milli);
  }
}
