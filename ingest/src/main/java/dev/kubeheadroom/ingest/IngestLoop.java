package dev.kubeheadroom.ingest;

import dev.kubeheadroom.ingest.WorkQueue.Key;
import dev.kubeheadroom.ingest.WorkQueue.Kind;
import dev.kubeheadroom.ingest.WorkQueue.NodeSyncs;
import dev.kubeheadroom.ingest.WorkQueue.Resync;
import dev.kubeheadroom.ingest.WorkQueue.Work;
import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.Emissions;
import dev.kubeheadroom.projection.Emissions.Emission;
import dev.kubeheadroom.projection.Emissions.PodEmitted;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.SyncMark;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one loop of ingest: it takes what the informer handlers queued ({@link WorkQueue}), projects
 * each key's object as the informer's cache has it then ({@link ClusterProjector}), publishes what
 * the projector emitted, and then acts on what was published: the {@code ResizeInfeasible} event
 * and the resize metrics. One thread does all of it, so events come out in the order of the
 * publish-order contract (docs/design/pipeline.md, "Publish order"); the projector's monitor is
 * held only while a group is projected, for the readers on other threads (the config in force,
 * diagnostics): nothing is sent to Kafka and no Event is written under it.
 *
 * <p>A batch is everything queued when the loop looks: a full re-publish first if one is owed,
 * then the keys kind by kind (nodes, namespaces, LimitRanges, config, VPAs, pods: a node's
 * snapshot before its pods), the pods grouped by node, then the node syncs if they are due. A
 * VPA key adds the keys of its namespace's cached pods to the batch's pods: the projector judges
 * which pods a VPA marks when it projects them, from nothing but what the loop hands it.
 */
final class IngestLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IngestLoop.class);

  /** Where what the projector emitted goes: the Kafka sink ({@link IngestOutput}). */
  interface Publisher {
    /** Sends the records in the order given. Never blocks. */
    void publish(List<Emission> emitted);

    void nodeSyncs(List<NodeSync> syncs);

    /** A re-publish's bracket around a node's pods (its begin before them, its end after). */
    void syncMark(SyncMark mark);

    /**
     * A full re-publish begins: a new leadership's sink takes records from here on, none worked
     * before it (its state goes out in the re-publish, a node's pods together).
     */
    void republishBegins();

    /** Waits until the buffer is at most half full; at once when nothing is published. */
    void awaitRoom() throws InterruptedException;

    /** The most bytes one record should hold (a node sync is chunked to it). */
    int recordBudget();
  }

  /** The informers' caches a key's object is read from; vpas and configs null when not served. */
  record Caches(Indexer<Pod> pods, Indexer<Node> nodes, Indexer<Namespace> namespaces,
      Indexer<LimitRange> limitRanges, Store<GenericKubernetesResource> vpas,
      Store<GenericKubernetesResource> configs) {}

  private final WorkQueue queue;
  private final Publisher out;
  private final InfeasibleEvents infeasible;
  private final IngestMetrics metrics;
  private final BooleanSupplier publishing;
  private final int groupLimit;
  private final Emissions emitted = new Emissions();
  private final ClusterProjector projector;
  private final NodePublisher nodes;
  private final NamespaceTracker namespaces;
  private final ConfigTracker config;
  private final SnapshotPublisher pods;
  private final Thread thread;

  /**
   * @param publishing whether this instance leads now: a re-publish or node sync runs only then
   * @param bufferCapacity the sink's bound in records: a re-publish sends a node's pods in one go
   *     unless they are more than half of it
   */
  IngestLoop(WorkQueue queue, Caches caches, Publisher out, InfeasibleEvents infeasible,
      IngestMetrics metrics, BooleanSupplier publishing, int bufferCapacity) {
    this.queue = queue;
    this.out = out;
    this.infeasible = infeasible;
    this.metrics = metrics;
    this.publishing = publishing;
    this.groupLimit = Math.max(1, bufferCapacity / 2);
    this.projector = new ClusterProjector(emitted, ClusterProjector.AppliedLimits.NONE);
    this.nodes = new NodePublisher(projector, metrics, caches.nodes());
    this.namespaces = new NamespaceTracker(projector, metrics, caches.namespaces(), caches.limitRanges());
    this.config = new ConfigTracker(projector, metrics, caches.configs());
    this.pods = new SnapshotPublisher(projector, metrics, caches.pods(), caches.vpas(), infeasible);
    this.thread = new Thread(this::run, "headroom-ingest-loop");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Asks for a full re-publish (every cached object, then a node sync per node). Never blocks. */
  void resync(String reason) {
    queue.add(new Resync(reason));
  }

  /** Asks for the periodic node sync. Never blocks. */
  void nodeSyncDue() {
    queue.add(new NodeSyncs());
  }

  ConfigTracker config() {
    return config;
  }

  NamespaceTracker namespaces() {
    return namespaces;
  }

  private void run() {
    while (true) {
      List<Work> batch;
      try {
        batch = queue.takeAll();
        if (batch.isEmpty()) {
          return; // closed
        }
        work(batch);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) { // a bug: keep the loop, the next change or re-publish heals
        LOG.error("ingest: a batch of work failed", e);
      }
    }
  }

  /** Works one batch (see the class comment). */
  void work(List<Work> batch) throws InterruptedException {
    List<String> resyncs = new ArrayList<>(); // one re-publish serves every reason asked
    boolean nodeSyncs = false;
    Map<Kind, List<String>> keys = new EnumMap<>(Kind.class);
    for (Work work : batch) {
      if (work instanceof Resync r) {
        resyncs.add(r.reason());
      } else if (work instanceof NodeSyncs) {
        nodeSyncs = true;
      } else if (work instanceof Key k) {
        keys.computeIfAbsent(k.kind(), kind -> new ArrayList<>()).add(k.key());
      }
    }
    if (!resyncs.isEmpty()) {
      republish(resyncs);
    }
    // after a re-publish, which read the caches as they are, a key changes nothing: not churn
    boolean churn = resyncs.isEmpty();
    List<String> named = keys.getOrDefault(Kind.POD, List.of());
    // a VPA's namespace's pods are reconciled as pod keys: the projector only takes what it is handed
    Set<String> podKeys = new LinkedHashSet<>(named);
    for (Map.Entry<Kind, List<String>> entry : keys.entrySet()) {
      Kind kind = entry.getKey();
      if (kind == Kind.VPA) {
        step(() -> entry.getValue().forEach(key -> podKeys.addAll(pods.vpa(key))));
      } else if (kind != Kind.POD) {
        step(() -> entry.getValue().forEach(key -> reconcile(kind, key, churn)));
      }
    }
    Set<String> namedSet = churn ? new HashSet<>(named) : Set.of();
    for (List<String> group : podGroups(podKeys)) {
      step(() -> group.forEach(key -> pods.reconcile(key, namedSet.contains(key))));
    }
    if (nodeSyncs && resyncs.isEmpty() && publishing.getAsBoolean()) {
      syncNodes();
    }
  }

  private void reconcile(Kind kind, String key, boolean churn) {
    switch (kind) {
      case NODE -> nodes.reconcile(key, churn);
      case NAMESPACE -> namespaces.namespace(key, churn);
      case LIMIT_RANGE -> namespaces.limitRange(key);
      case CONFIG -> config.reconcile(key);
      case VPA, POD -> throw new IllegalArgumentException(kind + " keys are worked with the pods");
    }
  }

  /**
   * Publishes everything cached as if nothing had been: nodes, namespaces, the config, the pods a
   * node at a time (each node's between a begin and an end {@link SyncMark}, so the topology holds
   * its decision until all are read), then a node sync per node. Paced by the sink's buffer,
   * waiting for room only between groups, never inside a node's pods (docs/design/pipeline.md,
   * "Publish order").
   */
  private void republish(List<String> reasons) throws InterruptedException {
    if (!publishing.getAsBoolean()) {
      return;
    }
    long started = System.nanoTime();
    out.republishBegins();
    synchronized (projector) {
      nodes.forgetPublished();
      namespaces.forgetPublished();
      pods.forgetPublished();
    }
    for (String name : nodes.names()) {
      out.awaitRoom();
      step(() -> nodes.reconcile(name, false));
    }
    for (String name : namespaces.names()) {
      out.awaitRoom();
      step(() -> namespaces.namespace(name, false));
    }
    step(config::republish);
    for (Map.Entry<String, List<String>> node : pods.byNode(pods.keys()).entrySet()) {
      boolean bound = !node.getKey().isEmpty(); // unbound pods are on no node: nothing to hold
      List<List<String>> slices = slices(node.getValue());
      for (int i = 0; i < slices.size(); i++) {
        List<String> slice = slices.get(i);
        out.awaitRoom();
        if (bound && i == 0) {
          out.syncMark(new SyncMark(node.getKey(), SyncMark.Phase.BEGIN));
        }
        step(() -> slice.forEach(key -> pods.reconcile(key, false)));
      }
      if (bound) {
        out.syncMark(new SyncMark(node.getKey(), SyncMark.Phase.END));
      }
    }
    out.awaitRoom(); // the node syncs find room (a tiny buffer left full would overflow on them)
    syncNodes();
    reasons.forEach(metrics::resync); // counted once done: "a re-publish ran" means all it read is sent
    LOG.info("full re-publish ({}) done in {} ms", String.join(", ", reasons),
        Duration.ofNanos(System.nanoTime() - started).toMillis());
  }

  /** The keys a node at a time; a node of more pods than half the buffer holds in slices of that. */
  private List<List<String>> podGroups(Collection<String> keys) {
    List<List<String>> groups = new ArrayList<>();
    for (List<String> node : pods.byNode(keys).values()) {
      groups.addAll(slices(node));
    }
    return groups;
  }

  /** A node's keys in slices of at most half the buffer's record bound (one slice, mostly). */
  private List<List<String>> slices(List<String> node) {
    List<List<String>> slices = new ArrayList<>();
    for (int from = 0; from < node.size(); from += groupLimit) {
      slices.add(node.subList(from, Math.min(node.size(), from + groupLimit)));
    }
    return slices;
  }

  private void syncNodes() {
    List<NodeSync> syncs;
    synchronized (projector) {
      syncs = pods.nodeSyncs(nodes.names(), out.recordBudget());
    }
    out.nodeSyncs(syncs);
  }

  /** Projects under the projector's monitor, publishes what that emitted, then acts on it. */
  private void step(Runnable projection) {
    List<Emission> published;
    synchronized (projector) {
      projection.run();
      published = emitted.drain();
    }
    out.publish(published);
    for (Emission e : published) { // outside any lock: the event is written on its own thread
      if (e instanceof PodEmitted p) {
        infeasible.observe(p.snapshot(), p.source());
        metrics.kubeletResize(p.snapshot().namespace(), p.snapshot().name(), p.snapshot().resize());
      }
    }
  }

  /** Stops taking work; what a batch under way publishes still goes to the sink. */
  @Override
  public void close() {
    queue.close();
    thread.interrupt();
  }
}
