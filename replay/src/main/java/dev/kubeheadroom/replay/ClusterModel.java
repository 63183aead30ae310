package dev.kubeheadroom.replay;

import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.VpaProjection;
import dev.kubeheadroom.projection.VpaTarget;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The simulated API server of {@code simulate}: the objects a watch log describes, projected into
 * the records ingest would publish, plus the CPU limits a simulated actuator applied. Headroom
 * owns the limits it set: a later watch line changes a container's request, never that limit.
 */
final class ClusterModel {
  private final ReplayEngine engine;
  private final Consumer<String> warnings;
  private final Map<String, Pod> podObjects = new HashMap<>();
  private final Map<String, PodSnapshot> pods = new HashMap<>();
  private final Map<String, Map<String, Long>> ownedLimits = new HashMap<>();
  private final Map<String, NodeSnapshot> nodes = new HashMap<>();
  private final Map<String, Namespace> namespaces = new HashMap<>();
  private final Map<String, Map<String, LimitRange>> limitRanges = new HashMap<>();
  private final Map<String, Map<String, VpaTarget>> vpas = new HashMap<>();
  private LastGoodConfig config = LastGoodConfig.INITIAL;
  private long patches;

  ClusterModel(ReplayEngine engine, Consumer<String> warnings) {
    this.engine = engine;
    this.warnings = warnings;
  }

  long patches() {
    return patches;
  }

  /** Live, bound, non-terminal pods by uid. */
  Map<String, PodSnapshot> pods() {
    return pods;
  }

  void apply(WatchEvent event) {
    HasMetadata object = event.object();
    boolean deleted = event.type() == WatchEvent.Type.DELETED;
    if (object instanceof Pod pod) {
      applyPod(pod, deleted);
    } else if (object instanceof Node node) {
      applyNode(node, deleted);
    } else if (object instanceof Namespace ns) {
      if (deleted) {
        namespaces.remove(ns.getMetadata().getName());
        engine.namespace(ns.getMetadata().getName(), null);
      } else {
        namespaces.put(ns.getMetadata().getName(), ns);
        publishNamespace(ns.getMetadata().getName());
      }
    } else if (object instanceof LimitRange lr) {
      String ns = lr.getMetadata().getNamespace();
      Map<String, LimitRange> byName = limitRanges.computeIfAbsent(ns, k -> new TreeMap<>());
      if (deleted) {
        byName.remove(lr.getMetadata().getName());
      } else {
        byName.put(lr.getMetadata().getName(), lr);
      }
      publishNamespace(ns);
    } else if (object instanceof GenericKubernetesResource generic) {
      applyGeneric(event, generic, deleted);
    }
  }

  private void applyGeneric(WatchEvent event, GenericKubernetesResource object, boolean deleted) {
    if ("HeadroomConfig".equals(object.getKind())) {
      config = deleted ? config.deleted() : config.offer(object);
      if (config.refused()) {
        warnings.accept("line " + event.lineNumber() + ": HeadroomConfig refused, keeping the last good one: "
            + config.refusal());
      } else {
        engine.config(deleted ? null : config.config());
      }
    } else if ("VerticalPodAutoscaler".equals(object.getKind())) {
      String ns = object.getMetadata().getNamespace();
      Map<String, VpaTarget> byName = vpas.computeIfAbsent(ns, k -> new TreeMap<>());
      if (deleted) {
        byName.remove(object.getMetadata().getName());
      } else {
        VpaProjection.project(object).ifPresentOrElse(
            t -> byName.put(object.getMetadata().getName(), t),
            () -> byName.remove(object.getMetadata().getName()));
      }
      for (Pod pod : new ArrayList<>(podObjects.values())) {
        if (ns != null && ns.equals(pod.getMetadata().getNamespace())) {
          applyPod(pod, false); // a VPA's reach changed: re-project its namespace's pods
        }
      }
    }
  }

  private void applyNode(Node node, boolean deleted) {
    String name = node.getMetadata().getName();
    if (deleted) {
      if (nodes.remove(name) != null) {
        engine.send(NodeProjection.removed(node));
      }
      return;
    }
    NodeSnapshot snapshot = NodeProjection.project(node);
    if (!snapshot.equals(nodes.put(name, snapshot))) {
      engine.send(snapshot);
    }
  }

  private void applyPod(Pod pod, boolean deleted) {
    String uid = pod.getMetadata().getUid();
    if (uid == null) {
      return;
    }
    if (deleted) {
      podObjects.remove(uid);
      ownedLimits.remove(uid);
      PodSnapshot old = pods.remove(uid);
      if (old != null) {
        engine.send(new PodRemoved(uid, old.namespace(), old.name(), old.node()));
      }
      return;
    }
    // Projected before any state changes: a pod that cannot be read leaves the model as it was.
    PodSnapshot projected = PodProjection.project(pod, vpaControlsLimits(pod)).orElse(null);
    podObjects.put(uid, pod);
    if (projected == null) {
      return; // not bound yet: no node's booking includes it
    }
    PodSnapshot snapshot = projected.withCpuLimits(ownedLimits.get(uid));
    PodSnapshot old = pods.get(uid);
    if (snapshot.terminal()) {
      podObjects.remove(uid);
      ownedLimits.remove(uid);
      pods.remove(uid);
      if (old != null) {
        engine.send(snapshot); // the topology drops terminal pods from every sum
      }
      return;
    }
    pods.put(uid, snapshot);
    if (!snapshot.sameBooking(old)) {
      engine.send(snapshot);
    }
  }

  private boolean vpaControlsLimits(Pod pod) {
    Map<String, VpaTarget> inNs = vpas.get(pod.getMetadata().getNamespace());
    if (inNs == null || inNs.isEmpty()) {
      return false;
    }
    PodSnapshot probe = PodProjection.project(pod, false).orElse(null);
    if (probe == null) {
      return false;
    }
    return inNs.values().stream()
        .anyMatch(v -> v.controlsLimits() && v.targets(probe.namespace(), probe.owners()));
  }

  private void publishNamespace(String name) {
    Namespace ns = namespaces.get(name);
    if (ns != null) {
      engine.namespace(name, NamespaceProjection.project(ns,
          limitRanges.getOrDefault(name, Map.of()).values()));
    }
  }

  /** The simulated actuator: applies one pod's change at once, as a resize would. */
  void resize(PodChange change) {
    PodSnapshot pod = pods.get(change.uid());
    if (pod == null) {
      return; // gone meanwhile
    }
    Map<String, Long> owned = ownedLimits.computeIfAbsent(change.uid(), k -> new HashMap<>());
    for (ContainerChange t : change.containers()) {
      Long before = owned.put(t.name(), t.toMilli());
      long was = before != null ? before : currentLimit(pod, t.name());
      if (was != t.toMilli()) {
        patches++;
      }
    }
    PodSnapshot applied = pod.resized(owned);
    pods.put(change.uid(), applied);
    engine.send(applied);
  }

  private static long currentLimit(PodSnapshot pod, String container) {
    return pod.containers().stream().filter(c -> c.name().equals(container))
        .mapToLong(ContainerSnapshot::cpuLimitMilli).findFirst().orElse(0);
  }
}
