package dev.kubeheadroom.ingest;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest stage: fabric8 shared informers on pods (every pod, field-stripped cache), nodes,
 * namespaces, LimitRanges, and — when their APIs are served — VerticalPodAutoscalers and the
 * HeadroomConfig, published to the node-keyed and compacted topics by the leader only.
 *
 * <pre>{@code
 * try (Ingest ingest = Ingest.start(client, settings, registry)) {
 *   String why = ingest.terminated().join(); // topics unusable: exit (a lost Lease is stood again)
 * }
 * }</pre>
 *
 * <p>Every instance runs the informers (a standby's cache is warm); the one holding the Lease
 * opens the Kafka sink and publishes everything it has (a full re-publish, then a node sync per
 * node), then changes as they come and a node sync every resync period; it also keeps the
 * HeadroomConfig's status ({@link ConfigStatusWriter}) and writes the {@code ResizeInfeasible}
 * pod events ({@link InfeasibleEvents}). Informer handlers only queue keys; one {@link IngestLoop}
 * projects and publishes. The caller owns the client and the registry.
 */
public final class Ingest implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);

  /** {@code autoscaling.k8s.io/v1 VerticalPodAutoscaler}, namespaced (optional CRD). */
  public static final CustomResourceDefinitionContext VPA = new CustomResourceDefinitionContext.Builder()
      .withGroup("autoscaling.k8s.io").withVersion("v1").withKind("VerticalPodAutoscaler")
      .withPlural("verticalpodautoscalers").withScope("Namespaced").build();

  /** {@code kube-headroom.dev/v1alpha1 HeadroomConfig}, cluster-scoped (Headroom's CRD). */
  public static final CustomResourceDefinitionContext HEADROOM_CONFIG = new CustomResourceDefinitionContext.Builder()
      .withGroup("kube-headroom.dev").withVersion("v1alpha1").withKind("HeadroomConfig")
      .withPlural("headroomconfigs").withScope("Cluster").build();

  /**
   * Objects per LIST page of an informer's (re)list, client-go's reflector default
   * ({@code tools/pager/pager.go}, {@code defaultPageSize}). Unpaged, the first list of 150,000
   * pods is one response of gigabytes, held whole (bytes, then every full pod) before the
   * stripped cache takes any of it; paged, at most one page is.
   */
  static final long LIST_PAGE = 500;

  private final KubernetesClient client;
  private final IngestSettings settings;
  private final IngestMetrics metrics;
  private final KafkaSink sink;
  private final ScheduledExecutorService executor;
  private java.util.concurrent.ScheduledFuture<?> nodeSyncs; // this leadership's periodic node sync (executor thread)
  private final IngestLeader leader;
  private final CompletableFuture<String> terminated = new CompletableFuture<>();
  private final List<Watched> informers = new ArrayList<>();

  private final IngestLoop loop;
  private final InfeasibleEvents infeasible;
  private final boolean vpaServed;
  private final boolean configServed;
  private SharedIndexInformer<GenericKubernetesResource> configInformer; // null: API not served
  private volatile ConfigStatusWriter statusWriter; // while leading, when the API is served

  /** One informer and whether it may be missing (a CRD not installed). */
  private record Watched(String kind, SharedIndexInformer<?> informer, boolean optional,
      CompletableFuture<Boolean> synced) {}

  private Ingest(KubernetesClient client, IngestSettings settings, MeterRegistry registry,
      HeadroomMetrics shared) {
    this.client = client;
    this.settings = settings;
    this.metrics = new IngestMetrics(registry, shared);
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-ingest-leader");
      t.setDaemon(true);
      return t;
    });
    WorkQueue queue = new WorkQueue();
    this.sink = new KafkaSink(settings, metrics, reason -> queue.add(new WorkQueue.Resync(reason)),
        KafkaSink.DEFAULT_BUFFER_BYTES);

    SharedIndexInformer<Pod> podInformer = client.pods().inAnyNamespace().withLimit(LIST_PAGE).runnableInformer(0)
        .itemStore(new StrippedPodStore(new PodFieldStripper()));
    SharedIndexInformer<Node> nodeInformer = client.nodes().withLimit(LIST_PAGE).runnableInformer(0);
    SharedIndexInformer<Namespace> nsInformer = client.namespaces().withLimit(LIST_PAGE).runnableInformer(0);
    SharedIndexInformer<LimitRange> lrInformer = client.limitRanges().inAnyNamespace().withLimit(LIST_PAGE)
        .runnableInformer(0);
    this.infeasible = new InfeasibleEvents(
        new PodEvents(client, Clock.systemUTC(), InfeasibleEvents.REPORTING_CONTROLLER, settings.lease().identity()),
        metrics, this::publishing, this::managed);
    vpaServed = ApiDiscovery.serves(client, VPA.getGroup() + "/" + VPA.getVersion(), VPA.getKind());
    configServed = ApiDiscovery.serves(client,
        HEADROOM_CONFIG.getGroup() + "/" + HEADROOM_CONFIG.getVersion(), HEADROOM_CONFIG.getKind());
    SharedIndexInformer<GenericKubernetesResource> vpaInformer = null;
    if (vpaServed) {
      vpaInformer = client.genericKubernetesResources(VPA).inAnyNamespace().runnableInformer(0);
      vpaInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.VPA, "vpa", metrics));
    } else {
      LOG.warn("VerticalPodAutoscaler API ({}/{}) not served: no pod is marked as VPA-controlled",
          VPA.getGroup(), VPA.getVersion());
    }
    if (configServed) {
      configInformer = client.genericKubernetesResources(HEADROOM_CONFIG).runnableInformer(0);
      configInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.CONFIG, "config", metrics));
    } else {
      LOG.warn("HeadroomConfig API ({}/{}) not served: the defaults (dry-run) are in force",
          HEADROOM_CONFIG.getGroup(), HEADROOM_CONFIG.getVersion());
    }
    this.loop = new IngestLoop(queue, new IngestLoop.Caches(podInformer.getIndexer(), nodeInformer.getIndexer(),
        nsInformer.getIndexer(), lrInformer.getIndexer(), vpaInformer == null ? null : vpaInformer.getStore(),
        configInformer == null ? null : configInformer.getStore()),
        new IngestOutput(settings.topics(), sink, metrics), infeasible, metrics, this::publishing,
        settings.bufferCapacity());
    loop.start();
    nodeInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.NODE, "node", metrics));
    nsInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.NAMESPACE, "namespace", metrics));
    lrInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.LIMIT_RANGE, "limitrange", metrics));
    podInformer.addEventHandler(EventHandlers.enqueue(queue, WorkQueue.Kind.POD, "pod", metrics));
    if (vpaInformer != null) {
      watch("VerticalPodAutoscaler", vpaInformer, true);
    }
    if (configInformer != null) {
      watch("HeadroomConfig", configInformer, true);
    }
    watch("Node", nodeInformer, false);
    watch("Namespace", nsInformer, false);
    watch("LimitRange", lrInformer, false);
    watch("Pod", podInformer, false); // last: VPAs are known when pods are first judged

    this.leader = new IngestLeader(client, settings.lease(), () -> executor.execute(this::lead),
        () -> executor.execute(this::standBy));
    sink.failed().whenComplete((ok, error) -> stop("Kafka topics unusable: " + error.getMessage()));
  }

  /**
   * Starts the informers and joins the leader election; returns at once. See {@link #ready()}
   * and {@link #terminated()}.
   */
  public static Ingest start(KubernetesClient client, IngestSettings settings, MeterRegistry registry) {
    return start(client, settings, registry, new HeadroomMetrics(registry));
  }

  /** As above, reporting the shared meters through the process's one {@link HeadroomMetrics}. */
  public static Ingest start(KubernetesClient client, IngestSettings settings, MeterRegistry registry,
      HeadroomMetrics shared) {
    Ingest ingest = new Ingest(client, settings, registry, shared);
    ingest.leader.start();
    return ingest;
  }

  /** Informers synced (absent optional APIs aside) and Kafka answering. */
  public boolean ready() {
    return informersSynced() && sink.reachable();
  }

  /** Whether this instance holds the Lease and publishes. */
  public boolean leading() {
    return leader.leading();
  }

  /**
   * Completes with the reason when the stage stopped by itself (topics
   * unusable): the process should exit so its supervisor starts a fresh instance.
   */
  public CompletableFuture<String> terminated() {
    return terminated;
  }

  /** Whether the VerticalPodAutoscaler and HeadroomConfig APIs were found (and listable). */
  public boolean vpaApiServed() {
    return vpaServed && informers.stream().noneMatch(w -> w.kind().equals("VerticalPodAutoscaler")
        && w.synced().isDone() && !w.synced().join());
  }

  public boolean configApiServed() {
    return configServed && informers.stream().noneMatch(w -> w.kind().equals("HeadroomConfig")
        && w.synced().isDone() && !w.synced().join());
  }

  /** The HeadroomConfig in force and the last refusal's one-line reason, if any. */
  public dev.kubeheadroom.projection.LastGoodConfig configState() {
    return loop.config().state();
  }

  private void watch(String kind, SharedIndexInformer<?> informer, boolean optional) {
    informer.exceptionHandler((started, t) -> {
      if (optional && ApiDiscovery.isNotFound(t)) {
        return false; // the CRD is not (or no longer) installed: stop this informer only
      }
      LOG.warn("{} watch failed, retrying: {}", kind, t.getMessage());
      return true;
    });
    CompletableFuture<Boolean> synced = new CompletableFuture<>();
    informer.start().whenComplete((ok, error) -> {
      if (error == null) {
        synced.complete(true);
      } else if (optional && ApiDiscovery.isNotFound(error)) {
        LOG.warn("{} API not served (404): continuing without it", kind);
        synced.complete(false);
      } else {
        synced.completeExceptionally(error);
        stop(kind + " informer failed: " + error.getMessage());
      }
    });
    informers.add(new Watched(kind, informer, optional, synced));
  }

  private boolean informersSynced() {
    for (Watched w : informers) {
      if (!w.synced().isDone() && !w.informer().hasSynced()) {
        return false;
      }
      if (w.synced().isCompletedExceptionally()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether this instance publishes now. Informer events can arrive while the constructor still
   * runs, before {@link #leader} is assigned: then it does not.
   */
  private boolean publishing() {
    IngestLeader l = leader;
    return l != null && l.leading() && !terminated.isDone();
  }

  /** Whether the config in force manages pods of {@code namespace} (as the caches have it). */
  private boolean managed(String namespace) {
    return loop.config().state().config().manages(loop.namespaces().current(namespace));
  }

  /** Became leader: wait for the caches, open the sink, publish everything, sync nodes. */
  private void lead() {
    try {
      for (Watched w : informers) {
        w.synced().get();
      }
    } catch (Exception e) {
      stop("informers did not sync: " + e.getMessage());
      return;
    }
    if (!leader.leading() || terminated.isDone()) {
      return;
    }
    java.util.OptionalLong epoch;
    try {
      epoch = leader.epoch();
    } catch (RuntimeException e) {
      // the API server did not answer: ask again while this instance still leads
      LOG.warn("the Lease could not be read for this leadership's epoch ({}); asking again", e.getMessage());
      executor.schedule(this::lead, settings.lease().retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    if (epoch.isEmpty()) {
      return; // another instance holds the Lease already: the elector tells this one it lost
    }
    LOG.info("leading with epoch {}", epoch.getAsLong());
    sink.open(epoch.getAsLong()); // takes nothing until the re-publish below begins (KafkaSink.open)
    metrics.leader(true);
    loop.resync("leader");
    startStatusWriter();
    long period = settings.resyncPeriod().toMillis();
    nodeSyncs = executor.scheduleAtFixedRate(loop::nodeSyncDue, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Lost the Lease (another holder, or renewals the API server did not answer): publish nothing
   * until this instance leads again, when {@link #lead} re-publishes everything under a new epoch.
   * The caches and informers stay: a restart would only rebuild them.
   */
  private void standBy() {
    sink.shut();
    stopStatusWriter();
    if (nodeSyncs != null) {
      nodeSyncs.cancel(false);
      nodeSyncs = null;
    }
    metrics.leader(false);
  }

  /** The leader keeps HeadroomConfig {@code cluster}'s status (if the API is served). */
  private synchronized void startStatusWriter() {
    if (configInformer == null || terminated.isDone()) {
      return;
    }
    SharedIndexInformer<GenericKubernetesResource> informer = configInformer;
    statusWriter = new ConfigStatusWriter(client,
        () -> informer.getStore().getByKey(HeadroomKeys.CONFIG_NAME),
        loop.config()::evaluation, settings, metrics, Clock.systemUTC());
    statusWriter.start();
  }

  private synchronized void stopStatusWriter() {
    if (statusWriter != null) {
      statusWriter.close();
      statusWriter = null;
    }
  }

  private void stop(String reason) {
    if (terminated.isDone()) {
      return;
    }
    sink.shut();
    stopStatusWriter();
    metrics.leader(false);
    LOG.warn("ingest stopped: {}", reason);
    terminated.complete(reason);
  }

  /**
   * Stops publishing, lets Kafka take what is queued (up to 5 s), then leaves the election
   * (releasing the Lease, so a standby takes over at once) and stops the informers.
   */
  @Override
  public void close() {
    sink.shut();
    stopStatusWriter();
    metrics.leader(false);
    executor.shutdownNow();
    loop.close();
    infeasible.close();
    sink.close(Duration.ofSeconds(5));
    leader.close();
    informers.forEach(w -> w.informer().stop());
    if (!terminated.isDone()) {
      terminated.complete("closed");
    }
  }
}
