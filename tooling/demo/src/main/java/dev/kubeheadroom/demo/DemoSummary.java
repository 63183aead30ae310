package dev.kubeheadroom.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What a demo run did, for people: scheduling events, patches, API writes per scheduling event,
 * and how long it took from a pod's bind to its first limit change.
 *
 * @param binds pods bound to a node (scheduling events)
 * @param decisions decision records the topology emitted
 * @param resizeCalls resize calls that changed at least one limit
 * @param limitChanges container limits changed
 * @param apiWrites every write Headroom made to the API server for its work (resizes, annotations,
 *     events; the ingest Lease renewals are left out)
 * @param bindToPatch per pod, time from its bind to its first limit change (wall clock)
 * @param wall the run's duration
 */
public record DemoSummary(long binds, long decisions, long resizeCalls, long limitChanges,
    long apiWrites, List<Duration> bindToPatch, Duration wall) {

  public DemoSummary {
    List<Duration> sorted = new ArrayList<>(bindToPatch);
    Collections.sort(sorted);
    bindToPatch = List.copyOf(sorted);
  }

  public double writesPerSchedulingEvent() {
    return binds == 0 ? 0 : (double) apiWrites / binds;
  }

  /** The q-quantile (0..1) of bind → patch times, nearest rank; zero when none. */
  public Duration bindToPatch(double q) {
    if (bindToPatch.isEmpty()) {
      return Duration.ZERO;
    }
    int rank = (int) Math.ceil(q * bindToPatch.size());
    return bindToPatch.get(Math.max(0, Math.min(bindToPatch.size() - 1, rank - 1)));
  }

  public List<String> lines() {
    return List.of(
        String.format(Locale.ROOT, "%d scheduling events, %d decisions, %d resize calls (%d container limits)",
            binds, decisions, resizeCalls, limitChanges),
        String.format(Locale.ROOT, "%.2f API writes per scheduling event (%d writes: resizes, annotations, events)",
            writesPerSchedulingEvent(), apiWrites),
        String.format(Locale.ROOT, "bind → patch: p50 %d ms, p99 %d ms over %d pods",
            bindToPatch(0.5).toMillis(), bindToPatch(0.99).toMillis(), bindToPatch.size()),
        String.format(Locale.ROOT, "ran %.1f s", wall.toMillis() / 1000.0));
  }
}
