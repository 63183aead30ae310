package dev.kubeheadroom.actuator;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.OutcomeResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * The actuator's meters (docs/design/headroom-design.txt §8.1). The shared ones ({@code headroom_resizes_total{result}},
 * {@code headroom_pod_applied_limit_cores{namespace,pod}}) are {@link HeadroomMetrics}', defined once for
 * every stage; the actuator's own: {@code headroom_actuator_patch_seconds} and
 * {@code headroom_actuator_decision_to_patch_seconds} (histograms),
 * {@code headroom_actuator_annotation_failures_total}, {@code headroom_actuator_event_failures_total},
 * {@code headroom_actuator_rejected_total{rule}} (namespace, age, request),
 * {@code headroom_actuator_dead_letters_total}.
 */
final class ActuatorMetrics {
  static final String PATCH = "headroom.actuator.patch";
  static final String DECISION_TO_PATCH = "headroom.actuator.decision.to.patch";
  static final String ANNOTATION_FAILURES = "headroom.actuator.annotation.failures";
  static final String EVENT_FAILURES = "headroom.actuator.event.failures";
  static final String DEAD_LETTERS = "headroom.actuator.dead.letters";
  static final String REJECTED = "headroom.actuator.rejected";

  private final HeadroomMetrics shared;
  private final Timer patch;
  private final Timer decisionToPatch;
  private final Counter annotationFailures;
  private final Counter eventFailures;
  private final Counter deadLetters;
  private final Map<DecisionGate.Rule, Counter> rejected = new EnumMap<>(DecisionGate.Rule.class);

  ActuatorMetrics(MeterRegistry registry, HeadroomMetrics shared) {
    this.shared = shared;
    // Histograms (not summaries) so p99 aggregates across replicas: patch 5 ms – 30 s (the
    // client's request timeout); decision → patch 50 ms – 10 min (--max-decision-age's default).
    patch = Timer.builder(PATCH).description("Duration of resize subresource calls")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(5)).maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
    decisionToPatch = Timer.builder(DECISION_TO_PATCH)
        .description("From the topology's decision to the resize patch answered")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(50)).maximumExpectedValue(Duration.ofMinutes(10))
        .register(registry);
    annotationFailures = Counter.builder(ANNOTATION_FAILURES)
        .description("Status annotation writes that failed").register(registry);
    eventFailures = Counter.builder(EVENT_FAILURES).description("Event writes that failed").register(registry);
    deadLetters = Counter.builder(DEAD_LETTERS)
        .description("Decision records that could not be read").register(registry);
    for (DecisionGate.Rule rule : DecisionGate.Rule.values()) {
      rejected.put(rule, Counter.builder(REJECTED).tag("rule", rule.tag())
          .description("Decisions the actuator refused, by the check that failed").register(registry));
    }
  }

  void rejected(DecisionGate.Rule rule) {
    rejected.get(rule).increment();
  }

  void outcome(String namespace, String pod, OutcomeResult result) {
    shared.resize(namespace, pod, result);
  }

  Timer patch() {
    return patch;
  }

  /**
   * A patch was answered: its duration, and how long after the decision ({@code decidedAt}, may be
   * null) it was; a negative span (clocks of two hosts) is not counted.
   */
  void patched(Timer.Sample sample, Instant decidedAt, Instant now) {
    sample.stop(patch);
    if (decidedAt != null && !now.isBefore(decidedAt)) {
      decisionToPatch.record(Duration.between(decidedAt, now));
    }
  }

  void annotationFailed() {
    annotationFailures.increment();
  }

  void eventFailed() {
    eventFailures.increment();
  }

  void deadLetter() {
    deadLetters.increment();
  }

  /** The pod's applied (or dry-run would-be) limit. */
  void podApplied(String namespace, String pod, long milli) {
    shared.podApplied(namespace, pod, milli);
  }

  /** The pod is gone: its series goes too. */
  void podGone(String namespace, String pod) {
    shared.podRemoved(namespace, pod);
  }
}
