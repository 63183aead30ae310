package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A cluster-wide config change through the live stack: the HeadroomConfig's {@code maxMultiplier}
 * 10 → 4, then the time until every managed pod is at the limit the policy gives it under the new
 * config ({@link PolicyCheck}: none left that a decision would resize), printed once a minute with
 * the resizes, writes and the actuator's refusals so far; it ends there, at {@code timeout}, or
 * when no resize has come for {@code stall} with pods still off their limit.
 */
record ConfigChange(ApiServerDouble api, DesignPointCluster cluster, Duration quiet, Duration stall,
    MeterRegistry actuatorMetrics, DesignPointBench.Report out) {
  /**
   * The default shrink deadband (5%): a pod within it of its new target keeps its limit, so a
   * pod up to 4 / 0.95 × request is where the policy leaves it.
   */
  static final double SHRINK_DEADBAND = 0.05;

  /**
   * Waits for the initial sync's resizes to stop (none for {@code quiet}), at most {@code timeout},
   * printing progress once a minute; then describes the initial sync's resizes per pod (since
   * {@code syncStart}) and checks the policy against the pods as they are.
   */
  void awaitInitialSync(Instant syncStart, Duration timeout) throws InterruptedException {
    Instant start = Instant.now();
    Instant progressAt = start;
    boolean quietReached = false;
    while (Duration.between(start, Instant.now()).compareTo(timeout) < 0) {
      Instant last = api.requests().entries().stream().filter(e -> DesignPointBench.isResize(e.request()))
          .map(RequestJournal.Entry::at).reduce((x, y) -> y).orElse(start);
      if (Duration.between(last.isAfter(start) ? last : start, Instant.now()).compareTo(quiet) >= 0) {
        quietReached = true;
        break;
      }
      if (Duration.between(progressAt, Instant.now()).toSeconds() >= 60) {
        progressAt = Instant.now();
        out.line("  initial sync +%d s: %d resize calls since ingest started; refused %s; load %s",
            Duration.between(syncStart, progressAt).toSeconds(),
            api.requests().countSince(syncStart, DesignPointBench::isResize), refusals(), DesignPointBench.Report.load());
      }
      Thread.sleep(1000);
    }
    out.line("%s (%d resize calls since ingest started; refused %s)", quietReached
        ? "initial sync quiet: no resize for " + quiet : "initial sync NOT quiet after " + timeout + "; changing the config anyway",
        api.requests().countSince(syncStart, DesignPointBench::isResize), refusals());
    ResizeLog.describe(entriesSince(syncStart), cluster, syncStart).forEach(l -> out.line("initial sync %s", l));
    PolicyCheck.Off off = new PolicyCheck(api, cluster).off(PolicyCheck.withMaxMultiplier(10));
    out.line("policy (maxMultiplier 10) on the pods now: %d managed pods off their limit (%d to shrink) %s",
        off.pods(), off.shrinks(), off.sample());
  }

  void run(Duration timeout) throws InterruptedException {
    PolicyConfig next = PolicyCheck.withMaxMultiplier(4);
    PolicyCheck check = new PolicyCheck(api, cluster);
    PolicyCheck.Off before = check.off(next);
    Map<String, Double> refusedBefore = refusals();
    out.line("before the change: %d managed pods off their limit under maxMultiplier 4 (%d to shrink), %d seeded beyond 4x and the deadband",
        before.pods(), before.shrinks(), cluster.above(4 / (1 - SHRINK_DEADBAND)));
    Instant t0 = Instant.now();
    api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName(HeadroomKeys.CONFIG_NAME)
        .edit(c -> {
          @SuppressWarnings("unchecked")
          Map<String, Object> spec = new HashMap<>((Map<String, Object>) c.getAdditionalProperties().get("spec"));
          spec.put("maxMultiplier", "4");
          GenericKubernetesResource changed = c;
          changed.getAdditionalProperties().put("spec", spec);
          return changed;
        });
    out.phase();
    Instant last = t0;
    long resized = 0;
    Instant progressAt = t0;
    Instant checkedAt = t0;
    PolicyCheck.Off off = before;
    String end;
    while (true) {
      Thread.sleep(1000);
      long calls = api.requests().countSince(t0, DesignPointBench::isResize);
      if (calls > resized) {
        resized = calls;
        last = Instant.now();
      }
      Instant now = Instant.now();
      boolean minute = Duration.between(progressAt, now).toSeconds() >= 60;
      boolean quietNow = resized > 0 && Duration.between(last, now).compareTo(quiet) >= 0;
      // the policy check reads every pod: once a minute, and when the resizes pause
      if (minute || (quietNow && checkedAt.isBefore(last))) {
        off = check.off(next);
        checkedAt = Instant.now();
      }
      if (minute) {
        progressAt = now;
        out.line("  config change +%d s: %d resize calls, %d writes; %d managed pods off their new limit (%d to shrink); refused %s; load %s",
            Duration.between(t0, now).toSeconds(), resized, api.requests().countSince(t0, DesignPointBench::isWrite),
            off.pods(), off.shrinks(), since(refusedBefore), DesignPointBench.Report.load());
      }
      if (off.pods() == 0 && checkedAt.isAfter(t0)) {
        end = "every managed pod at its new limit";
        break;
      }
      if (Duration.between(last, now).compareTo(stall) >= 0) {
        end = "STALLED: no resize for " + stall + " with " + off.pods() + " pods off their limit " + off.sample();
        break;
      }
      if (Duration.between(t0, now).compareTo(timeout) >= 0) {
        end = "TIMED OUT with " + off.pods() + " pods off their limit";
        break;
      }
    }
    report(t0, last, end, refusedBefore);
  }

  private void report(Instant t0, Instant last, String end, Map<String, Double> refusedBefore) {
    List<RequestJournal.Entry> since = entriesSince(t0);
    List<RequestJournal.Entry> writes = since.stream().filter(e -> DesignPointBench.isWrite(e.request())).toList();
    long resizes = since.stream().filter(e -> DesignPointBench.isResize(e.request())).count();
    double seconds = Math.max(0.001, Duration.between(t0, last).toMillis() / 1000.0);
    TreeMap<Long, Long> perSecond = writes.stream().collect(Collectors.groupingBy(
        e -> e.at().getEpochSecond(), TreeMap::new, Collectors.counting()));
    long peak = perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0);
    TreeMap<String, Long> byKind = writes.stream().collect(Collectors.groupingBy(
        e -> e.request().resource() + (e.request().subresource() == null || e.request().subresource().isEmpty() ? "" : "/" + e.request().subresource()),
        TreeMap::new, Collectors.counting()));
    out.line("maxMultiplier 10 -> 4: %s; last resize %.1f s after the change (%s): %d resize calls, %d writes = %.1f writes/s "
            + "(peak %d in one second) %s, %d requests = %.1f/s; refused during it %s",
        end, seconds, out.phase(), resizes, writes.size(), writes.size() / seconds, peak, byKind, since.size(),
        since.size() / seconds, since(refusedBefore));
    ResizeLog.describe(since, cluster, t0).forEach(l -> out.line("config change %s", l));
    out.line("after the change: %d managed pods above 4 x request, %d of them beyond the shrink deadband",
        stillAbove(4), stillAbove(4 / (1 - SHRINK_DEADBAND)));
  }

  /** The actuator's refusals so far by rule ({@code headroom.actuator.rejected}). */
  Map<String, Double> refusals() {
    Map<String, Double> out = new TreeMap<>();
    for (Counter c : actuatorMetrics.find("headroom.actuator.rejected").counters()) {
      out.merge(c.getId().getTag("rule"), c.count(), Double::sum);
    }
    return out;
  }

  private Map<String, Double> since(Map<String, Double> before) {
    Map<String, Double> now = refusals();
    now.replaceAll((rule, n) -> n - before.getOrDefault(rule, 0.0));
    return now;
  }

  private List<RequestJournal.Entry> entriesSince(Instant t0) {
    return api.requests().entries().stream().filter(e -> !e.at().isBefore(t0)).toList();
  }

  /** Managed pods (of the seeded ones) whose CPU limit in the double is above {@code multiplier} × request. */
  long stillAbove(double multiplier) {
    java.util.Set<String> managed = cluster.pods.stream().filter(DesignPointCluster.SeededPod::managed)
        .map(p -> p.namespace() + "/" + p.name()).collect(Collectors.toSet());
    long above = 0;
    for (io.fabric8.kubernetes.api.model.Pod pod : api.pods()) {
      if (!managed.contains(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName())) {
        continue;
      }
      for (io.fabric8.kubernetes.api.model.Container c : pod.getSpec().getContainers()) {
        io.fabric8.kubernetes.api.model.Quantity request = c.getResources().getRequests().get("cpu");
        io.fabric8.kubernetes.api.model.Quantity limit = c.getResources().getLimits() == null ? null : c.getResources().getLimits().get("cpu");
        if (request != null && limit != null
            && limit.getNumericalAmount().doubleValue() > request.getNumericalAmount().doubleValue() * multiplier + 1e-9) {
          above++;
        }
      }
    }
    return above;
  }
}
