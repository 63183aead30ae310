package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.throttling.WhatIfReport;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * What {@code audit} and {@code explain} print with {@code -o json|yaml}: the facts their text
 * shows, as records (millicores as integers). Built from {@link Explanation}; the text form stays
 * {@link Explanation#print}.
 */
final class AuditViews {
  private AuditViews() {}

  /** {@code audit --at T} without {@code --pod}/{@code --node}: what the replay read. */
  record ReplaySummary(Instant at, long records, long decisions, int nodes) {}

  /** {@code audit --at T --node N}: every pod booked on the node. */
  record NodeView(String node, Instant at, long allocatableMilli, List<PodView> pods) {}

  /** One booker of a node. */
  record Booker(String namespace, String name, long requestMilli, boolean managed, String notManagedBecause) {}

  /** The pod's last decision: its limit change and the node factor then. */
  record LastDecision(Instant at, long fromMilli, long targetMilli, String reason, double factor, boolean dryRun) {}

  /** The pod's last resize outcome. */
  record LastOutcome(Instant at, String result, long targetMilli, String message) {}

  /** A target sent but not yet confirmed by the pod. */
  record InFlight(long targetMilli, Instant sentAt, boolean dryRun) {}

  /**
   * One pod's explanation. {@code limitMilli} is null when a CPU-requesting container has no
   * limit; {@code targetMilli}, {@code reason} and {@code apply} are null for a pod not managed;
   * {@code throttling} only with {@code explain --prometheus}.
   */
  record PodView(String namespace, String name, String node, Instant at, long requestMilli, Long limitMilli,
      InFlight inFlight, boolean managed, String notManagedBecause, long allocatableMilli, long slackMilli,
      long managedRequestsMilli, int managedPods, double factor, Long targetMilli, String reason, Boolean apply,
      List<Booker> bookers, LastDecision lastDecision, LastOutcome lastOutcome, WhatIfReport throttling) {

    static PodView of(Explanation e) {
      PodSnapshot pod = e.pod();
      boolean managed = e.notManagedBecause() == null;
      Decision d = managed ? e.decision() : null;
      return new PodView(pod.namespace(), pod.name(), e.node(), e.at(), pod.effectiveRequestMilli(), limit(pod),
          e.inFlight() == null ? null
              : new InFlight(e.inFlight().targetMilli(), e.inFlight().sentAt(), e.inFlight().dryRun()),
          managed, e.notManagedBecause(), e.allocatableMilli(), e.slackMilli(), e.managedRequestsMilli(),
          e.managedPods(), e.factor(), managed && e.trace() != null ? e.trace().targetMilli() : null,
          d == null ? null : d.reason().wireName(), d == null ? null : d.apply(),
          e.bookers().stream().map(b -> new Booker(b.namespace(), b.name(), b.requestMilli(), b.managed(), b.whyNot()))
              .toList(),
          e.lastDecision().flatMap(n -> n.changes().stream().filter(c -> c.uid().equals(pod.uid())).findFirst()
              .map(c -> new LastDecision(n.at(), c.fromMilli(), c.targetMilli(), c.reason(), n.stats().factor(),
                  n.dryRun()))).orElse(null),
          e.lastOutcome().map(o -> new LastOutcome(o.at(), o.result().wireName(), o.targetMilli(), o.message()))
              .orElse(null), null);
    }

    /** This view with {@code explain --prometheus}'s what-if as its {@code throttling} field. */
    PodView withThrottling(WhatIfReport report) {
      return new PodView(namespace, name, node, at, requestMilli, limitMilli, inFlight, managed, notManagedBecause,
          allocatableMilli, slackMilli, managedRequestsMilli, managedPods, factor, targetMilli, reason, apply,
          bookers, lastDecision, lastOutcome, report);
    }

    /** Σ CPU limits of the containers that bear one, null if any of them has none (as the text's "none"). */
    private static Long limit(PodSnapshot pod) {
      long sum = 0;
      for (var c : pod.limitBearingContainers()) {
        if (c.cpuRequestMilli() > 0) {
          if (c.cpuLimitMilli() == 0) {
            return null;
          }
          sum = dev.kubeheadroom.policy.Saturating.add(sum, c.cpuLimitMilli());
        }
      }
      return sum;
    }
  }

  /**
   * {@code audit --verify}: decisions and checkpoints re-derived, what differed, and the
   * checkpoints not verifiable exactly (their read order not recorded), one line per problem as
   * the text form prints them.
   */
  record VerifyReport(Instant from, Instant to, long checked, long differing, long checkpoints,
      long checkpointsDiffering, long checkpointsNotVerifiable, List<String> differences) {}
}
