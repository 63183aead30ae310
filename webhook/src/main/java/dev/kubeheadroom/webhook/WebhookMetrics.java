package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.Ineligibility;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The webhook's meters, named the Micrometer way so that the Prometheus registry renders:
 * <ul>
 *   <li>{@code headroom_webhook_requests_total{result="mutated|unchanged|error"}}: admission
 *       reviews answered (every one of them allowed);
 *   <li>{@code headroom_webhook_unchanged_total{reason}}: pods admitted without a seed, by
 *       eligibility gate ({@link Ineligibility}, named as {@code explain} names it) or the
 *       webhook's own {@link AllowReason} (errors included, as {@code reason="error"});
 *   <li>{@code headroom_webhook_latency_seconds}: time from request read to response written (a histogram, buckets 1 ms – 30 s);
 *   <li>{@code headroom_webhook_rejected_requests_total{status}}: HTTP requests answered with no
 *       AdmissionReview ({@code 404}, {@code 405}, {@code 413}); the API server then applies
 *       {@code failurePolicy: Ignore};
 *   <li>{@code headroom_webhook_state_unreadable_records_total}: records on the namespaces/config
 *       topics that could not be decoded (skipped);
 *   <li>{@code headroom_webhook_state_warm}: 1 once the topics have been read to their end.
 * </ul>
 */
public final class WebhookMetrics {
  static final String REQUESTS = "headroom.webhook.requests";
  static final String UNCHANGED = "headroom.webhook.unchanged";
  static final String LATENCY = "headroom.webhook.latency";
  static final String REJECTED = "headroom.webhook.rejected.requests";
  static final String UNREADABLE = "headroom.webhook.state.unreadable.records";
  static final String WARM = "headroom.webhook.state.warm";

  /** The {@code result} tag. */
  public enum Result {
    MUTATED("mutated"), UNCHANGED("unchanged"), ERROR("error");

    private final String tag;

    Result(String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private final MeterRegistry registry;
  private final Map<Result, Counter> requests = new EnumMap<>(Result.class);
  private final Map<String, Counter> unchanged = new LinkedHashMap<>();
  private final Timer latency;
  private final Counter unreadable;

  public WebhookMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (Result r : Result.values()) {
      requests.put(r, Counter.builder(REQUESTS).description("Admission reviews answered, all allowed")
          .tag("result", r.tag()).register(registry));
    }
    List<String> reasons = new ArrayList<>();
    for (Ineligibility gate : Ineligibility.values()) {
      if (gate != Ineligibility.BACKOFF) { // a booking's history: never judged at CREATE
        reasons.add(gate.wireName());
      }
    }
    for (AllowReason reason : AllowReason.values()) {
      reasons.add(reason.wireName());
    }
    for (String reason : reasons) {
      unchanged.put(reason, Counter.builder(UNCHANGED)
          .description("Pods admitted without a seeded CPU limit, by reason")
          .tag("reason", reason).register(registry));
    }
    // A histogram so p99 aggregates across replicas; the API server gives up after the webhook's
    // timeoutSeconds (≤ 30 s), so nothing longer is worth a bucket.
    latency = Timer.builder(LATENCY).description("Admission review handling time")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
    unreadable = Counter.builder(UNREADABLE)
        .description("Unreadable records on the namespaces/config topics (skipped)").register(registry);
  }

  void mutated() {
    requests.get(Result.MUTATED).increment();
  }

  /** @param reason an {@link Ineligibility} gate's or an {@link AllowReason}'s wire name */
  void unchanged(String reason) {
    requests.get(reason.equals(AllowReason.ERROR.wireName()) ? Result.ERROR : Result.UNCHANGED).increment();
    unchanged.get(reason).increment();
  }

  void rejected(int status) {
    Counter.builder(REJECTED).description("HTTP requests answered without an AdmissionReview")
        .tag("status", Integer.toString(status)).register(registry).increment();
  }

  void unreadableRecord() {
    unreadable.increment();
  }

  void warmGauge(BooleanSupplier warm) {
    Gauge.builder(WARM, () -> warm.getAsBoolean() ? 1.0 : 0.0)
        .description("1 once the namespaces/config topics have been read to their end")
        .register(registry);
  }

  Timer latency() {
    return latency;
  }

  /** Count of answered reviews with this result (tests, health output). */
  public double requestCount(Result result) {
    return requests.get(result).count();
  }

  /** Count of pods admitted unchanged for this reason of the webhook's own. */
  public double unchangedCount(AllowReason reason) {
    return unchanged.get(reason.wireName()).count();
  }

  /** Count of pods admitted unchanged because of this eligibility gate. */
  public double unchangedCount(Ineligibility gate) {
    return unchanged.get(gate.wireName()).count();
  }
}
