package dev.kubeheadroom.ops;

import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.PodChange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every Headroom metric, named and created in this one place (runbook "Metrics and dashboards",
 * docs/design/headroom-design.txt §8.1). Names below are Micrometer names; the comment after each is the name in the
 * Prometheus scrape, which is what the dashboard and alerts use.
 *
 * <p>Per-node and per-pod gauges hold strong references and are removed from the registry when
 * their node or pod goes ({@link #nodeRemoved}, {@link #podRemoved}), so series do not leak. All
 * methods are thread-safe; none blocks or does I/O.
 */
public final class HeadroomMetrics {

  /** {@code headroom_node_factor{node}}: the node's slack factor F = 1 + S/M. */
  public static final String NODE_FACTOR = "headroom.node.factor";
  /** {@code headroom_node_slack_cores{node}}: unbooked CPU on the node, in cores. */
  public static final String NODE_SLACK_CORES = "headroom.node.slack.cores";
  /**
   * {@code headroom_pod_target_cores{namespace,pod}}: the aggregate CPU limit the topology computed
   * for the pod (opt-in, bounded: {@link PodSeries}).
   */
  public static final String POD_TARGET_CORES = "headroom.pod.target.cores";
  /**
   * {@code headroom_pod_applied_limit_cores{namespace,pod}}: the aggregate CPU limit the actuator
   * last applied to the pod (under dryRun: would have applied); opt-in, bounded ({@link PodSeries}).
   */
  public static final String POD_APPLIED_CORES = "headroom.pod.applied.limit.cores";
  /**
   * {@code headroom_pod_series_overflow_total{metric}}: pod values not exported because their
   * family already holds {@link PodSeries#max} series.
   */
  public static final String POD_SERIES_OVERFLOW = "headroom.pod.series.overflow";
  /** {@code headroom_build_info{version,java_version}}: 1, labelled with what runs. */
  public static final String BUILD_INFO = "headroom.build.info";
  /** {@code headroom_resizes_total{result}}: resize tries by {@link OutcomeResult} wire name. */
  public static final String RESIZES = "headroom.resizes";
  /** {@code headroom_reconcile_duration_seconds}: one node's reconcile, as a histogram. */
  public static final String RECONCILE_DURATION = "headroom.reconcile.duration";
  /** {@code headroom_pods_managed}: managed pods over the nodes this process has decided for. */
  public static final String PODS_MANAGED = "headroom.pods.managed";
  /** {@code headroom_resize_deferred_pods}: pods whose latest resize the kubelet deferred. */
  public static final String RESIZE_DEFERRED_PODS = "headroom.resize.deferred.pods";
  /**
   * {@code headroom_resize_backoffs_total{result}}: refusal backoffs the topology started, by the
   * refusing result (infeasible, quota-denied, conflict, error); one per refusal, so its rate per
   * pod is bounded by the backoff (topology DESIGN.md).
   */
  public static final String RESIZE_BACKOFFS = "headroom.resize.backoffs";
  /**
   * {@code headroom_fenced_records_total{topic}}: records of a superseded ingest leader the
   * topology dropped (split-brain fencing, topology DESIGN.md); a few after a failover are normal.
   */
  public static final String FENCED_RECORDS = "headroom.fenced.records";
  /**
   * {@code headroom_dead_letters_total{topic,reason}}: records sent to the dead-letter topic (or,
   * for the global tables, skipped), by the topic they were read from (empty: none, a failed
   * punctuation) and why ({@code DeadLetter.Kind}: unreadable, null-key, wrong-key,
   * processing-error, too-large, production-error).
   */
  public static final String DEAD_LETTERS = "headroom.dead.letters";

  /** Label names, as they appear in the scrape. */
  public static final String NODE = "node";
  public static final String NAMESPACE = "namespace";
  public static final String POD = "pod";
  public static final String RESULT = "result";
  public static final String TOPIC = "topic";
  public static final String REASON = "reason";
  private static final String UNREADABLE = "unreadable";

  private final MeterRegistry registry;
  private final GaugeFamily nodeFactor;
  private final GaugeFamily nodeSlack;
  private final GaugeFamily podTarget;
  private final GaugeFamily podApplied;
  private final Counter targetOverflow;
  private final Counter appliedOverflow;
  private final Map<OutcomeResult, Counter> resizes = new EnumMap<>(OutcomeResult.class);
  private final Map<OutcomeResult, Counter> backoffs = new ConcurrentHashMap<>();
  private final Timer reconcile;
  /** node → managed pod count from its latest decision; {@code headroom_pods_managed} is the sum. */
  private final Map<String, Integer> managedByNode = new ConcurrentHashMap<>();
  /** pod → the node of its latest decision, so a node's removal removes its pods' series. */
  private final Map<PodKey, String> podNode = new ConcurrentHashMap<>();
  private final Set<PodKey> deferred = ConcurrentHashMap.newKeySet();
  private final Set<PodKey> infeasible = ConcurrentHashMap.newKeySet();

  /** Without per-pod series ({@link PodSeries#OFF}). */
  public HeadroomMetrics(MeterRegistry registry) {
    this(registry, PodSeries.OFF);
  }

  public HeadroomMetrics(MeterRegistry registry, PodSeries podSeries) {
    this.registry = Objects.requireNonNull(registry, "registry");
    nodeFactor = new GaugeFamily(registry, NODE_FACTOR, "Node slack factor F = 1 + S/M", NODE);
    nodeSlack = new GaugeFamily(registry, NODE_SLACK_CORES, "Unbooked CPU on the node (cores)", NODE);
    podTarget = new GaugeFamily(registry, POD_TARGET_CORES,
        "Aggregate CPU limit the topology computed for the pod (cores)", podSeries.max(),
        NAMESPACE, POD);
    podApplied = new GaugeFamily(registry, POD_APPLIED_CORES,
        "Aggregate CPU limit the actuator last applied to the pod (cores)", podSeries.max(),
        NAMESPACE, POD);
    targetOverflow = overflowCounter("pod_target_cores");
    appliedOverflow = overflowCounter("pod_applied_limit_cores");
    BuildInfo.current().register(registry, BUILD_INFO);
    for (OutcomeResult result : OutcomeResult.values()) {
      resizes.put(
          result,
          Counter.builder(RESIZES)
              .description("Resize tries by result")
              .tag(RESULT, result.wireName())
              .register(registry));
    }
    // created at 0 for the results that refuse, so their rates start at 0
    for (OutcomeResult result : List.of(OutcomeResult.INFEASIBLE, OutcomeResult.QUOTA_DENIED,
        OutcomeResult.CONFLICT, OutcomeResult.ERROR, OutcomeResult.REJECTED)) {
      backoffCounter(result);
    }
    reconcile =
        Timer.builder(RECONCILE_DURATION)
            .description("Time to reconcile one node")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(30))
            .register(registry);
    Gauge.builder(PODS_MANAGED, managedByNode, HeadroomMetrics::sum)
        .description("Managed pods on the nodes this process decides for")
        .strongReference(true)
        .register(registry);
    Gauge.builder(RESIZE_DEFERRED_PODS, deferred, Set::size)
        .description("Pods whose latest resize the kubelet deferred")
        .strongReference(true)
        .register(registry);
  }

  /**
   * A Prometheus registry with Micrometer's defaults, minus Kafka Streams' per-processor-node
   * meters ({@link KafkaStreamsMeterFilter}); what {@link OpsServer} serves.
   */
  public static PrometheusMeterRegistry newPrometheusRegistry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().meterFilter(KafkaStreamsMeterFilter.DENY_PER_PROCESSOR);
    return registry;
  }

  private Counter overflowCounter(String metric) {
    return Counter.builder(POD_SERIES_OVERFLOW)
        .description("Pod values not exported: the per-pod family is at its bound")
        .tag("metric", metric)
        .register(registry);
  }

  /**
   * One node's decision: its factor and slack, its managed pod count, and the new limit of every
   * pod it changes.
   */
  public void recordDecision(NodeDecision decision) {
    String node = decision.node();
    nodeFactor.set(decision.stats().factor(), node);
    nodeSlack.set(decision.stats().slackMilli() / 1000.0, node);
    managedByNode.put(node, decision.stats().managedPods());
    for (PodChange change : decision.changes()) {
      if (podTarget.set(change.targetMilli() / 1000.0, change.namespace(), change.name())) {
        podNode.put(new PodKey(change.namespace(), change.name()), node);
      } else {
        targetOverflow.increment();
      }
    }
  }

  /** A pod's applied (or, in dry-run, would-be) limit: {@code headroom_pod_applied_limit_cores}. */
  public void podApplied(String namespace, String pod, long milli) {
    if (!podApplied.set(milli / 1000.0, namespace, pod)) {
      appliedOverflow.increment();
    }
  }

  /** The node is gone: remove its series and those of the pods last decided on it. */
  public void nodeRemoved(String node) {
    nodeFactor.remove(node);
    nodeSlack.remove(node);
    managedByNode.remove(node);
    podNode.forEach(
        (pod, onNode) -> {
          if (onNode.equals(node)) {
            podRemoved(pod.namespace(), pod.name());
          }
        });
  }

  /**
   * Removes every node and pod series this process holds, e.g. when a Streams rebalance moves
   * nodes' partitions to another instance (which then exports them); later decisions recreate
   * the series of the nodes still owned here.
   */
  public void forgetAllNodes() {
    Set.copyOf(managedByNode.keySet()).forEach(this::nodeRemoved);
    nodeFactor.clear();
    nodeSlack.clear();
    podTarget.clear();
    podNode.clear();
  }

  /** The pod is gone: remove its target and applied series and forget whether it was deferred. */
  public void podRemoved(String namespace, String pod) {
    PodKey key = new PodKey(namespace, pod);
    podTarget.remove(namespace, pod);
    podApplied.remove(namespace, pod);
    podNode.remove(key);
    deferred.remove(key);
    infeasible.remove(key);
  }

  /** Counts one resize try by result. */
  public void resize(OutcomeResult result) {
    resizes.get(result).increment();
  }

  /** Counts one refusal backoff started by the topology: {@code headroom_resize_backoffs_total}. */
  public void backoff(OutcomeResult result) {
    backoffCounter(result).increment();
  }

  private Counter backoffCounter(OutcomeResult result) {
    return backoffs.computeIfAbsent(result, r -> Counter.builder(RESIZE_BACKOFFS)
        .description("Refusal backoffs started, by the refusing result")
        .tag(RESULT, r.wireName())
        .register(registry));
  }

  /** Counts one resize try of the pod (the actuator's answer from the API server). */
  public void resize(String namespace, String pod, OutcomeResult result) {
    resize(result);
  }

  /**
   * What the kubelet reports of the pod's last resize, as ingest sees it in the pod's status
   * ({@code PodResizePending} Deferred / Infeasible): a pod newly in either state counts once in
   * {@code headroom_resizes_total{result}}, and deferred pods make {@code
   * headroom_resize_deferred_pods}. The actuator cannot see these: they come after its patch.
   */
  public void kubeletResizeStatus(String namespace, String pod, ResizeStatus status) {
    PodKey key = new PodKey(namespace, pod);
    if (status == ResizeStatus.DEFERRED) {
      if (deferred.add(key)) {
        resize(OutcomeResult.DEFERRED);
      }
    } else {
      deferred.remove(key);
    }
    if (status == ResizeStatus.INFEASIBLE) {
      if (infeasible.add(key)) {
        resize(OutcomeResult.INFEASIBLE);
      }
    } else {
      infeasible.remove(key);
    }
  }

  /** Counts one record of a superseded ingest leader dropped by the topology, by source topic. */
  public void fenced(String sourceTopic) {
    Counter.builder(FENCED_RECORDS)
        .description("Records of a superseded ingest leader dropped by the topology, by source topic")
        .tag(TOPIC, sourceTopic)
        .register(registry).increment();
  }

  /** Times one node's reconcile ({@code headroom_reconcile_duration_seconds}). */
  public Timer reconcileTimer() {
    return reconcile;
  }

  /** Counts one record sent to the dead-letter topic, by the topic it was read from and why. */
  public void deadLetter(String sourceTopic, String reason) {
    deadLetterCounter(sourceTopic, reason).increment();
  }

  /** Counts one unreadable record from {@code sourceTopic}. */
  public void deadLetter(String sourceTopic) {
    deadLetter(sourceTopic, UNREADABLE);
  }

  /**
   * Creates the dead-letter counters of these source topics at 0 for the usual reasons
   * (unreadable, processing-error), so rates start at 0.
   */
  public void precreateDeadLetters(Collection<String> sourceTopics) {
    sourceTopics.forEach(t -> {
      deadLetterCounter(t, UNREADABLE);
      deadLetterCounter(t, "processing-error");
    });
  }

  private Counter deadLetterCounter(String sourceTopic, String reason) {
    return Counter.builder(DEAD_LETTERS)
        .description("Records sent to the dead-letter topic, by source topic and reason")
        .tag(TOPIC, sourceTopic)
        .tag(REASON, reason)
        .register(registry);
  }

  private static double sum(Map<String, Integer> counts) {
    return counts.values().stream().mapToInt(Integer::intValue).sum();
  }

  private record PodKey(String namespace, String name) {}
}
