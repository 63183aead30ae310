package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A cluster-wide config change through the live stack: the HeadroomConfig's {@code maxMultiplier}
 * 10 → 4, then the time until the resizes it causes stop (none for {@code quiet}), how many
 * there were, the API write rate meanwhile (the double's journal), and how many managed pods are
 * still above 4 × their request at the end.
 */
record ConfigChange(ApiServerDouble api, DesignPointCluster cluster, Duration quiet, DesignPointBench.Report out) {
  /**
   * The default shrink deadband (5%): a pod within it of its new target keeps its limit, so a
   * pod up to 4 / 0.95 × request is where the policy leaves it.
   */
  static final double SHRINK_DEADBAND = 0.05;

  void run(Duration timeout) throws InterruptedException {
    awaitQuiet(Duration.ofMinutes(30));
    long expected = cluster.above(4 / (1 - SHRINK_DEADBAND));
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
    while (true) {
      Thread.sleep(1000);
      List<RequestJournal.Entry> since = entriesSince(t0);
      // a line a minute, so a long change that is stopped by hand still leaves its rate
      if (Duration.between(progressAt, Instant.now()).toSeconds() >= 60) {
        progressAt = Instant.now();
        out.line("  config change +%d s: %d resize calls so far, %d writes", Duration.between(t0, progressAt).toSeconds(),
            since.stream().filter(e -> DesignPointBench.isResize(e.request())).count(),
            since.stream().filter(e -> DesignPointBench.isWrite(e.request())).count());
      }
      List<RequestJournal.Entry> resizes = since.stream().filter(e -> DesignPointBench.isResize(e.request())).toList();
      if (resizes.size() > resized) {
        resized = resizes.size();
        last = resizes.get(resizes.size() - 1).at();
      }
      Instant now = Instant.now();
      boolean settled = Duration.between(last, now).compareTo(quiet) >= 0 && resized > 0;
      boolean nothing = resized == 0 && Duration.between(t0, now).compareTo(quiet.multipliedBy(6)) >= 0;
      if (settled || nothing || Duration.between(t0, now).compareTo(timeout) >= 0) {
        report(t0, last, since, expected, settled || nothing);
        return;
      }
    }
  }

  private void report(Instant t0, Instant last, List<RequestJournal.Entry> since, long expected, boolean finished) {
    List<RequestJournal.Entry> writes = since.stream().filter(e -> DesignPointBench.isWrite(e.request())).toList();
    long resizes = since.stream().filter(e -> DesignPointBench.isResize(e.request())).count();
    long ok = since.stream().filter(e -> DesignPointBench.isResize(e.request()) && e.code() == 200).count();
    Set<String> pods = since.stream().filter(e -> DesignPointBench.isResize(e.request()) && e.code() == 200)
        .map(e -> e.request().namespace() + "/" + e.request().name()).collect(Collectors.toSet());
    double seconds = Math.max(0.001, Duration.between(t0, last).toMillis() / 1000.0);
    TreeMap<Long, Long> perSecond = writes.stream().collect(Collectors.groupingBy(
        e -> e.at().getEpochSecond(), TreeMap::new, Collectors.counting()));
    long peak = perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0);
    long requests = since.size();
    out.line("maxMultiplier 10 -> 4: %s after %.1f s (%s): %d resize calls (%d answered 200, %d pods; %d seeded beyond 4x and the deadband), "
            + "%d writes = %.1f writes/s (peak %d in one second), %d requests = %.1f/s",
        finished ? "last resize" : "TIMED OUT, last resize so far", seconds, out.phase(), resizes, ok, pods.size(),
        expected, writes.size(), writes.size() / seconds, peak, requests, requests / seconds);
    long stillAbove = stillAbove(4);
    long outside = stillAbove(4 / (1 - SHRINK_DEADBAND));
    out.line("after the change: %d managed pods above 4 x request, %d of them beyond the shrink deadband%s", stillAbove, outside,
        finished || ok == 0 ? "" : String.format(java.util.Locale.ROOT, " (at %.1f resizes/s, %.0f s more)",
            ok / seconds, outside / (ok / seconds)));
  }

  /** Waits until no resize has been made for {@code quiet} (the initial sync's own resizes done). */
  void awaitQuiet(Duration timeout) throws InterruptedException {
    Instant start = Instant.now();
    while (Duration.between(start, Instant.now()).compareTo(timeout) < 0) {
      Instant last = api.requests().entries().stream().filter(e -> DesignPointBench.isResize(e.request()))
          .map(RequestJournal.Entry::at).reduce((x, y) -> y).orElse(start);
      if (Duration.between(last.isAfter(start) ? last : start, Instant.now()).compareTo(quiet) >= 0) {
        out.line("quiet: no resize for %s (%d resizes so far)", quiet,
            api.requests().count(DesignPointBench::isResize));
        return;
      }
      Thread.sleep(1000);
    }
    out.line("not quiet after %s; changing the config anyway", timeout);
  }

  private List<RequestJournal.Entry> entriesSince(Instant t0) {
    return api.requests().entries().stream().filter(e -> !e.at().isBefore(t0)).toList();
  }

  /** Managed pods (of the seeded ones) whose CPU limit in the double is above {@code multiplier} × request. */
  long stillAbove(double multiplier) {
    Set<String> managed = cluster.pods.stream().filter(DesignPointCluster.SeededPod::managed)
        .map(p -> p.namespace() + "/" + p.name()).collect(Collectors.toSet());
    long above = 0;
    for (Pod pod : api.pods()) {
      if (!managed.contains(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName())) {
        continue;
      }
      for (Container c : pod.getSpec().getContainers()) {
        Quantity request = c.getResources().getRequests().get("cpu");
        Quantity limit = c.getResources().getLimits() == null ? null : c.getResources().getLimits().get("cpu");
        if (request != null && limit != null
            && limit.getNumericalAmount().doubleValue() > request.getNumericalAmount().doubleValue() * multiplier + 1e-9) {
          above++;
        }
      }
    }
    return above;
  }
}
