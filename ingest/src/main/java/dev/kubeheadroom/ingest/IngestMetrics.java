package dev.kubeheadroom.ingest;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.schemas.ResizeStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The ingest stage's meters (Prometheus names in brackets). Rates are metrics, never log lines.
 *
 * <ul>
 *   <li>{@value #EVENTS}{@code {kind}} [headroom_ingest_events_total]: informer events seen;
 *       kind = pod, node, namespace, limitrange, vpa, config
 *   <li>{@value #PUBLISHED}{@code {record}} [headroom_ingest_published_total]: records handed to
 *       Kafka; record = pod, pod-removed, node-sync, sync-mark, node, node-removed, namespace,
 *       namespace-deleted, config, config-deleted
 *   <li>{@value #CHURN}{@code {kind}} [headroom_ingest_churn_dropped_total]: keys worked that
 *       changed nothing a decision depends on, so nothing was published (events for one key while
 *       it waits are worked once)
 *   <li>{@value #DEFERRED} [headroom_resize_deferred_pods]: pods whose last snapshot shows the
 *       kubelet's {@code PodResizePending/Deferred}
 *   <li>{@value #REFUSALS} [headroom_config_refusals_total]: HeadroomConfig objects refused
 *   <li>{@value #INVALID}{@code {kind}} [headroom_ingest_invalid_objects_total]: objects the
 *       projection refused (logged with the reason)
 *   <li>{@value #OVERFLOWS} [headroom_ingest_buffer_overflows_total]: records not queued because
 *       the buffer was full (each forces a full re-publish once Kafka is back)
 *   <li>{@value #DELIVERY_FAILURES} [headroom_ingest_delivery_failures_total]: records Kafka did
 *       not acknowledge in time (each forces a full re-publish)
 *   <li>{@value #REFUSED}{@code {reason}} [headroom_ingest_records_refused_total]: records Kafka
 *       refused for good ({@code too-large}): dead-lettered, never re-sent
 *   <li>{@value #RESYNCS}{@code {reason}} [headroom_ingest_resyncs_total]: full re-publishes completed;
 *       reason = leader, overflow
 *   <li>{@value #BUFFERED} [headroom_ingest_buffered_records]: queued plus unacknowledged records
 *   <li>{@value #LEADER} [headroom_ingest_leader]: 1 while this instance publishes
 *   <li>{@value #STATUS_WRITES} [headroom_config_status_writes_total]: HeadroomConfig status
 *       patches the API server accepted
 *   <li>{@value #STATUS_FAILURES}{@code {cause}} [headroom_config_status_failures_total]: status
 *       patches refused or unanswered (cause = patch) and failed reads of the decisions topic
 *       (cause = kafka); each is logged, none stops ingest
 *   <li>{@value #EVENT_FAILURES} [headroom_ingest_event_failures_total]: {@code ResizeInfeasible}
 *       events the API server refused or did not answer (or that found the writer's queue full);
 *       each is logged, none stops ingest
 *   <li>{@value #INFEASIBLE} [headroom_ingest_infeasible_announced_pods]: pods in an Infeasible
 *       episode this instance wrote the {@code ResizeInfeasible} event for (0 on a standby);
 *       dropped when the episode ends or the pod is deleted
 * </ul>
 */
public final class IngestMetrics {
  public static final String EVENTS = "headroom.ingest.events";
  public static final String PUBLISHED = "headroom.ingest.published";
  public static final String CHURN = "headroom.ingest.churn.dropped";
  /** Defined once, in {@link HeadroomMetrics}; fed from the pod snapshots ingest sees. */
  public static final String DEFERRED = HeadroomMetrics.RESIZE_DEFERRED_PODS;
  public static final String REFUSALS = "headroom.config.refusals";
  public static final String INVALID = "headroom.ingest.invalid.objects";
  public static final String OVERFLOWS = "headroom.ingest.buffer.overflows";
  public static final String DELIVERY_FAILURES = "headroom.ingest.delivery.failures";
  public static final String RESYNCS = "headroom.ingest.resyncs";
  public static final String REFUSED = "headroom.ingest.records.refused";
  public static final String BUFFERED = "headroom.ingest.buffered.records";
  public static final String LEADER = "headroom.ingest.leader";
  public static final String STATUS_WRITES = "headroom.config.status.writes";
  public static final String STATUS_FAILURES = "headroom.config.status.failures";
  public static final String EVENT_FAILURES = "headroom.ingest.event.failures";
  public static final String INFEASIBLE = "headroom.ingest.infeasible.announced.pods";

  private final MeterRegistry registry;
  private final HeadroomMetrics shared;
  private final AtomicLong leader = new AtomicLong();
  private final Counter eventFailures;

  /** @param shared the process's one {@link HeadroomMetrics} (shared meters are defined there) */
  public IngestMetrics(MeterRegistry registry, HeadroomMetrics shared) {
    this.registry = registry;
    this.shared = shared;
    Gauge.builder(LEADER, leader, AtomicLong::get).description("1 while this instance publishes")
        .register(registry);
    eventFailures = Counter.builder(EVENT_FAILURES).description("Pod event writes that failed")
        .register(registry);
  }

  public void event(String kind) {
    counter(EVENTS, "Watch events received, by object kind", "kind", kind).increment();
  }

  public void published(String record) {
    counter(PUBLISHED, "Records published, by record type", "record", record).increment();
  }

  public void churn(String kind) {
    counter(CHURN, "Watch events dropped: nothing a decision reads changed", "kind", kind).increment();
  }

  public void invalid(String kind) {
    counter(INVALID, "Objects that could not be projected, by kind", "kind", kind).increment();
  }

  public void refusal() {
    counter(REFUSALS, "HeadroomConfig specs refused").increment();
  }

  public void overflow() {
    counter(OVERFLOWS, "Times the bounded producer buffer overflowed").increment();
  }

  public void deliveryFailure() {
    counter(DELIVERY_FAILURES, "Record sends that failed").increment();
  }

  public void refused(String reason) {
    counter(REFUSED, "Records Kafka refused for good, by reason", "reason", reason).increment();
  }

  public void resync(String reason) {
    counter(RESYNCS, "Full re-publishes, by reason", "reason", reason).increment();
  }

  public void statusWritten() {
    counter(STATUS_WRITES, "HeadroomConfig status writes").increment();
  }

  public void statusFailure(String cause) {
    counter(STATUS_FAILURES, "HeadroomConfig status writes that failed, by cause", "cause", cause).increment();
  }

  public void eventFailed() {
    eventFailures.increment();
  }

  public void leader(boolean value) {
    leader.set(value ? 1 : 0);
  }

  /** The kubelet's view of a pod's last resize, from its snapshot (deferred / infeasible). */
  public void kubeletResize(String namespace, String pod, ResizeStatus status) {
    shared.kubeletResizeStatus(namespace, pod, status);
  }

  /** The pod is gone: its Headroom series go too. */
  public void podGone(String namespace, String pod) {
    shared.podRemoved(namespace, pod);
  }

  /** A counter with its help text: promtool (InstalledTier) flags a family without one. */
  private Counter counter(String name, String help, String... tags) {
    return Counter.builder(name).description(help).tags(tags).register(registry);
  }

  public void bufferedGauge(Supplier<Number> buffered) {
    Gauge.builder(BUFFERED, buffered).description("records queued or awaiting acknowledgement")
        .register(registry);
  }

  public void infeasibleGauge(Supplier<Number> announced) {
    Gauge.builder(INFEASIBLE, announced).description("pods in an Infeasible episode whose event this instance wrote")
        .register(registry);
  }
}
