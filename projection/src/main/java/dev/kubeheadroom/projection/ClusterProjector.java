package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * What ingest publishes, from the Kubernetes objects as they are now: the one place that decides
 * which records a cluster's objects become. Ingest feeds it from its informers' caches and sends
 * what it emits to Kafka; {@code simulate}, {@code audit} and the benchmarks feed it watch lines
 * and pipe what it emits into the replayed topology, so a replay publishes what live would.
 *
 * <ul>
 *   <li>pods: a {@link PodSnapshot} when its booking changed ({@link PodSnapshot#sameBooking}:
 *       status churn is dropped), terminal ones included (the topology drops them from every
 *       sum), a {@link PodRemoved} when a published pod is deleted; a VPA that controls limits
 *       marks the pods it targets; on a VPA change the caller projects its namespace's pods again
 *       (the projector holds no pod objects, only what it published);
 *   <li>nodes: a {@link NodeSnapshot} when it changed, a {@code NodeRemoved} when a published
 *       node is deleted;
 *   <li>namespaces with their LimitRanges: a {@link NamespaceInfo} when it changed, a tombstone
 *       when a published namespace is deleted;
 *   <li>the HeadroomConfig through {@link LastGoodConfig}: the config in force when it changed, a
 *       tombstone when deleted; a refused one publishes nothing.
 * </ul>
 *
 * Pure and single-threaded: callers serialize calls (ingest calls it from one loop). A call
 * whose object cannot be projected throws {@link ProjectionException} and publishes nothing; a
 * namespace or LimitRange is still held, as the API server holds it.
 */
public final class ClusterProjector {
  /**
   * Where the records go, as they are decided (keys: node name for node and pod records,
   * namespace, config name). {@link Emissions} keeps them for a caller that publishes after the
   * call returns.
   */
  public interface Output {
    void node(String node, dev.kubeheadroom.schemas.NodeEvent event);

    /** A pod snapshot to publish; {@code previous} is what was published for its uid, or null. */
    void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source);

    void podRemoved(PodRemoved removed, PodSnapshot previous);

    /** @param info null: a tombstone */
    void namespace(String name, NamespaceInfo info);

    /** @param config null: a tombstone (the defaults, dry-run) */
    void config(ClusterConfig config);
  }

  /**
   * CPU limits Headroom applied that the objects do not show yet (a replay's simulated actuator:
   * live, the API server's object carries them). By uid; null when none.
   */
  @FunctionalInterface
  public interface AppliedLimits {
    AppliedLimits NONE = uid -> null;

    Map<String, Long> of(String uid);
  }

  /** What a call did, for churn metrics. */
  public enum Outcome { PUBLISHED, UNCHANGED, SKIPPED }

  /** A HeadroomConfig's verdict ({@code state.refusal()} when refused) and what was sent. */
  public record ConfigVerdict(LastGoodConfig state, Outcome outcome) {}

  private static final Object TOMBSTONE = new Object();

  private final Output out;
  private final AppliedLimits applied;
  private final Map<String, PodSnapshot> pods = new HashMap<>(); // published, by uid
  private final Map<String, NodeSnapshot> nodes = new HashMap<>(); // published, by name
  private final Map<String, Namespace> namespaces = new HashMap<>();
  private final Map<String, Map<String, LimitRange>> limitRanges = new HashMap<>();
  private final Map<String, NamespaceInfo> namespaceInfos = new HashMap<>(); // published
  private final Map<String, Map<String, VpaTarget>> vpas = new HashMap<>();
  private LastGoodConfig config = LastGoodConfig.INITIAL;
  private Object configSent; // ClusterConfig, TOMBSTONE, or null: nothing yet

  public ClusterProjector(Output out, AppliedLimits applied) {
    this.out = out;
    this.applied = applied;
  }

  // ---- pods

  /** A pod as it is now (added or changed). Unbound pods publish nothing: no node books them. */
  public Outcome pod(Pod pod) {
    return pod(pod, PodProjection.project(pod, false).orElse(null));
  }

  /**
   * As {@link #pod(Pod)}, with the pod's plain projection made by the caller: {@code
   * PodProjection.project(pod, false)}, null when unbound. That part needs no state, so a replay
   * makes it on its reading thread; what needs the state (VPAs, applied limits, what was
   * published) is done here, on the same path as {@link #pod(Pod)}.
   */
  public Outcome pod(Pod pod, PodSnapshot plain) {
    if (plain == null) {
      return Outcome.SKIPPED;
    }
    PodSnapshot snapshot = vpaControlsLimits(plain)
        ? PodProjection.project(pod, true).orElseThrow() : plain;
    snapshot = snapshot.withCpuLimits(applied.of(snapshot.uid()));
    PodSnapshot last = pods.get(snapshot.uid());
    if (snapshot.sameBooking(last)) {
      return Outcome.UNCHANGED;
    }
    if (last != null && !last.node().equals(snapshot.node())) {
      // spec.nodeName changed (the API server forbids it, a log may hold it): records are keyed
      // by node, so the old node hears of it only by a removal; it would keep booking the pod.
      out.podRemoved(new PodRemoved(last.uid(), last.namespace(), last.name(), last.node()), last);
      last = null;
    }
    pods.put(snapshot.uid(), snapshot);
    out.pod(snapshot, last, pod);
    return Outcome.PUBLISHED;
  }

  /** A pod deleted: a {@link PodRemoved} if its uid was published. */
  public Outcome podDeleted(String uid) {
    PodSnapshot last = uid == null ? null : pods.remove(uid);
    if (last == null) {
      return Outcome.SKIPPED;
    }
    out.podRemoved(new PodRemoved(last.uid(), last.namespace(), last.name(), last.node()), last);
    return Outcome.PUBLISHED;
  }

  /**
   * Headroom resized a published pod in place (a replay's simulated actuator): publishes the pod
   * as the resize leaves it. The caller's {@link AppliedLimits} must show the new limits from now.
   */
  public void resized(String uid, Map<String, Long> limits) {
    PodSnapshot last = pods.get(uid);
    if (last == null || last.terminal()) {
      return;
    }
    PodSnapshot next = last.resized(limits);
    pods.put(uid, next);
    out.pod(next, last, null);
  }

  /** The snapshot last published for {@code uid}, or null. */
  public PodSnapshot publishedPod(String uid) {
    return pods.get(uid);
  }

  /** Every pod snapshot published and not removed (terminal ones included). */
  public Collection<PodSnapshot> publishedPods() {
    return pods.values();
  }

  /**
   * One {@link NodeSync} per node of {@code nodes} (empty when no pod is left on it) and per node
   * a published pod is on, listing the uids published; a node of many pods in uid-range chunks of
   * at most {@code maxBytes} each (one record over Kafka's request size would be refused).
   */
  public List<NodeSync> nodeSyncs(Collection<String> nodeNames, int maxBytes) {
    Map<String, List<String>> uids = new TreeMap<>();
    for (String node : nodeNames) {
      uids.put(node, new ArrayList<>());
    }
    for (PodSnapshot s : pods.values()) {
      uids.computeIfAbsent(s.node(), n -> new ArrayList<>()).add(s.uid());
    }
    List<NodeSync> syncs = new ArrayList<>();
    uids.forEach((node, list) -> syncs.addAll(NodeSync.chunks(node, list, maxBytes)));
    return syncs;
  }

  /** Forgets what was published for pods: the next call per pod publishes it again. */
  public void forgetPublishedPods() {
    pods.clear();
  }

  private boolean vpaControlsLimits(PodSnapshot pod) {
    Map<String, VpaTarget> inNamespace = vpas.get(pod.namespace());
    if (inNamespace == null || pod.owners().isEmpty()) {
      return false;
    }
    for (VpaTarget t : inNamespace.values()) {
      if (t.controlsLimits() && t.targets(pod.namespace(), pod.owners())) {
        return true;
      }
    }
    return false;
  }

  // ---- VPAs

  /**
   * A VerticalPodAutoscaler added, changed or deleted. Which pods it marks is decided when a pod is
   * projected, so the caller projects the pods of the namespace returned again, from its own
   * store ({@link #pod(Pod)} each): what changed is published then.
   *
   * @return the namespace whose pods to project again; null when the object names none
   */
  public String vpa(GenericKubernetesResource vpa, boolean deleted) {
    if (vpa.getMetadata() == null || vpa.getMetadata().getName() == null) {
      return null;
    }
    String namespace = vpa.getMetadata().getNamespace();
    String name = vpa.getMetadata().getName();
    Map<String, VpaTarget> byName = vpas.computeIfAbsent(namespace, k -> new TreeMap<>());
    VpaTarget target = deleted ? null : VpaProjection.project(vpa).orElse(null);
    if (target == null) {
      byName.remove(name); // deleted, or no usable targetRef: targets nothing
    } else {
      byName.put(name, target);
    }
    return namespace;
  }

  // ---- nodes

  public Outcome node(Node node) {
    return node(node, NodeProjection.project(node));
  }

  /** As {@link #node(Node)}, with {@code NodeProjection.project(node)} made by the caller ahead. */
  public Outcome node(Node node, NodeSnapshot snapshot) {
    return publishIfChanged(nodes, node.getMetadata().getName(), snapshot, out::node);
  }

  public Outcome nodeDeleted(Node node) {
    String name = node.getMetadata().getName();
    if (nodes.remove(name) == null) {
      return Outcome.SKIPPED;
    }
    out.node(name, NodeProjection.removed(node));
    return Outcome.PUBLISHED;
  }

  /** Every node snapshot published and not removed. */
  public Collection<NodeSnapshot> publishedNodes() {
    return nodes.values();
  }

  public void forgetPublishedNodes() {
    nodes.clear();
  }

  // ---- namespaces and LimitRanges

  public Outcome namespace(Namespace namespace) {
    String name = namespace.getMetadata().getName();
    namespaces.put(name, namespace); // held as the API server holds it, even if it does not project
    return publishNamespace(name, NamespaceProjection.project(namespace, limitRangesOf(name)));
  }

  public Outcome namespaceDeleted(String name) {
    namespaces.remove(name);
    if (namespaceInfos.remove(name) == null) {
      return Outcome.SKIPPED;
    }
    out.namespace(name, null);
    return Outcome.PUBLISHED;
  }

  /** A LimitRange added, changed or deleted: its namespace is published again if that changed it. */
  public Outcome limitRange(LimitRange limitRange, boolean deleted) {
    if (limitRange.getMetadata() == null || limitRange.getMetadata().getNamespace() == null) {
      return Outcome.SKIPPED;
    }
    String ns = limitRange.getMetadata().getNamespace();
    Map<String, LimitRange> byName = limitRanges.computeIfAbsent(ns, k -> new TreeMap<>());
    if (deleted) {
      byName.remove(limitRange.getMetadata().getName());
    } else {
      byName.put(limitRange.getMetadata().getName(), limitRange); // held as the API server holds it
    }
    Namespace namespace = namespaces.get(ns);
    if (namespace == null) {
      return Outcome.SKIPPED;
    }
    return publishNamespace(ns, NamespaceProjection.project(namespace, limitRangesOf(ns)));
  }

  public void forgetPublishedNamespaces() {
    namespaceInfos.clear();
  }

  private Collection<LimitRange> limitRangesOf(String namespace) {
    return limitRanges.getOrDefault(namespace, Map.of()).values();
  }

  private Outcome publishNamespace(String name, NamespaceInfo info) {
    return publishIfChanged(namespaceInfos, name, info, out::namespace);
  }

  /** Publishes {@code value} under {@code name} unless it is what {@code published} last holds there. */
  private static <V> Outcome publishIfChanged(Map<String, V> published, String name, V value,
      BiConsumer<String, V> publish) {
    if (value.equals(published.get(name))) {
      return Outcome.UNCHANGED;
    }
    published.put(name, value);
    publish.accept(name, value);
    return Outcome.PUBLISHED;
  }

  // ---- HeadroomConfig

  /**
   * A HeadroomConfig added or changed. Valid: in force, published if it differs from what was.
   * Refused: nothing published, the last good config stays (an object named other than {@value
   * HeadroomKeys#CONFIG_NAME} is refused and changes nothing).
   */
  public ConfigVerdict config(GenericKubernetesResource object) {
    LastGoodConfig next = config.offer(object);
    if (next.refused()) {
      String name = object.getMetadata() == null ? null : object.getMetadata().getName();
      if (HeadroomKeys.CONFIG_NAME.equals(name)) {
        config = next;
      }
      return new ConfigVerdict(next, Outcome.SKIPPED);
    }
    config = next;
    return new ConfigVerdict(next, sendConfig(config.config()));
  }

  /** The {@value HeadroomKeys#CONFIG_NAME} HeadroomConfig deleted: the defaults (dry-run). */
  public Outcome configDeleted() {
    config = config.deleted();
    return sendConfig(TOMBSTONE);
  }

  /** The config in force and the last refusal. */
  public LastGoodConfig configState() {
    return config;
  }

  /** Publishes the config in force again: after a fresh start of the output (a new leader). */
  public Outcome republishConfig() {
    configSent = null;
    if (config.config().generation() > 0) {
      return sendConfig(config.config());
    }
    return config.refused() ? Outcome.SKIPPED : sendConfig(TOMBSTONE);
  }

  private Outcome sendConfig(Object value) {
    if (Objects.equals(configSent, value)) {
      return Outcome.UNCHANGED;
    }
    configSent = value;
    out.config(value == TOMBSTONE ? null : (ClusterConfig) value);
    return Outcome.PUBLISHED;
  }
}
