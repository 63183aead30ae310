package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.OutcomeResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The actuator's meters (design §8.1), named the Micrometer way so that the Prometheus registry
 * renders: {@code headroom_resizes_total{result}}, {@code headroom_pod_limit_cores{namespace,pod}},
 * {@code headroom_actuator_patch_seconds}, {@code headroom_actuator_annotation_failures_total},
 * {@code headroom_actuator_event_failures_total}, {@code headroom_actuator_dead_letters_total}.
 */
final class ActuatorMetrics {
  static final String RESIZES = "headroom.resizes";
  static final String POD_LIMIT = "headroom.pod.limit.cores";
  static final String PATCH = "headroom.actuator.patch";
  static final String ANNOTATION_FAILURES = "headroom.actuator.annotation.failures";
  static final String EVENT_FAILURES = "headroom.actuator.event.failures";
  static final String DEAD_LETTERS = "headroom.actuator.dead.letters";

  private final MeterRegistry registry;
  private final Map<OutcomeResult, Counter> resizes = new EnumMap<>(OutcomeResult.class);
  private final Map<String, PodLimit> podLimits = new ConcurrentHashMap<>();
  private final Timer patch;
  private final Counter annotationFailures;
  private final Counter eventFailures;
  private final Counter deadLetters;

  private record PodLimit(AtomicLong milli, Gauge gauge) {}

  ActuatorMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (OutcomeResult result : OutcomeResult.values()) {
      resizes.put(result, Counter.builder(RESIZES).description("Resize tries by outcome")
          .tag("result", result.wireName()).register(registry));
    }
    patch = Timer.builder(PATCH).description("Duration of resize subresource calls").register(registry);
    annotationFailures = Counter.builder(ANNOTATION_FAILURES)
        .description("Status annotation writes that failed").register(registry);
    eventFailures = Counter.builder(EVENT_FAILURES).description("Event writes that failed").register(registry);
    deadLetters = Counter.builder(DEAD_LETTERS)
        .description("Decision records that could not be read").register(registry);
  }

  void outcome(OutcomeResult result) {
    resizes.get(result).increment();
  }

  Timer patch() {
    return patch;
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

  /** The pod's applied (or dry-run computed) limit. */
  void podLimit(String namespace, String pod, long milli) {
    podLimits.computeIfAbsent(namespace + "/" + pod, key -> {
      AtomicLong value = new AtomicLong(milli);
      Gauge gauge = Gauge.builder(POD_LIMIT, value, v -> v.get() / 1000.0)
          .description("CPU limit Headroom set (or would set, in dry-run) on the pod")
          .tags(Tags.of("namespace", namespace, "pod", pod)).register(registry);
      return new PodLimit(value, gauge);
    }).milli().set(milli);
  }

  /** The pod is gone: its series goes too. */
  void podGone(String namespace, String pod) {
    PodLimit removed = podLimits.remove(namespace + "/" + pod);
    if (removed != null) {
      registry.remove(removed.gauge());
    }
  }
}
