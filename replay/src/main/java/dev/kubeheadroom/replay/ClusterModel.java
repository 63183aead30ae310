package dev.kubeheadroom.replay;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
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
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The simulated API server of {@code simulate}: the objects a watch log describes, turned into
 * the records ingest would publish by the same {@link ClusterProjector} ingest runs, plus the CPU
 * limits a simulated actuator applied. Headroom owns the limits it set: a later watch line
 * changes a container's request, never that limit, unless it raises the request over it.
 */
final class ClusterModel {
  private final Consumer<String> warnings;
  private final ClusterProjector projector;
  /** Bound or not, non-terminal pods by uid: what a VPA change projects again (an informer's cache). */
  private final Map<String, Pod> podObjects = new HashMap<>();
  private final Map<String, Map<String, Long>> ownedLimits = new HashMap<>();
  private long patches;

  ClusterModel(ReplayEngine engine, Consumer<String> warnings) {
    this.warnings = warnings;
    this.projector = new ClusterProjector(new ClusterProjector.Output() {
      @Override
      public void node(String node, NodeEvent event) {
        engine.send(event);
      }

      @Override
      public void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source) {
        engine.send(snapshot);
      }

      @Override
      public void podRemoved(PodRemoved removed, PodSnapshot previous) {
        engine.send(removed);
      }

      @Override
      public void namespace(String name, NamespaceInfo info) {
        engine.namespace(name, info);
      }

      @Override
      public void config(ClusterConfig config) {
        engine.config(config);
      }
    }, ownedLimits::get);
  }

  long patches() {
    return patches;
  }

  /** Live, bound, non-terminal pods. */
  List<PodSnapshot> pods() {
    List<PodSnapshot> live = new ArrayList<>();
    for (PodSnapshot p : projector.publishedPods()) {
      if (!p.terminal()) {
        live.add(p);
      }
    }
    return live;
  }

  /** @param prepared the event's item with what the reading thread made of it alone */
  void apply(WatchEvent event, PreparedItem prepared) {
    HasMetadata object = event.object();
    boolean deleted = event.type() == WatchEvent.Type.DELETED;
    if (object instanceof Pod pod) {
      applyPod(pod, deleted, prepared);
    } else if (object instanceof Node node) {
      if (!deleted && !NodeProjection.hasAllocatableCpu(node)) {
        warnings.accept("line " + event.lineNumber() + ": Node(" + node.getMetadata().getName()
            + "): no status.allocatable.cpu: booked as 0 allocatable (no pod on it gets slack)");
      }
      if (deleted) {
        projector.nodeDeleted(node);
      } else {
        projector.node(node, prepared.nodeOf(node));
      }
    } else if (object instanceof Namespace ns) {
      if (deleted) {
        projector.namespaceDeleted(ns.getMetadata().getName());
      } else {
        projector.namespace(ns);
      }
    } else if (object instanceof LimitRange lr) {
      projector.limitRange(lr, deleted);
    } else if (object instanceof GenericKubernetesResource generic) {
      applyGeneric(event, generic, deleted);
    }
  }

  private void applyGeneric(WatchEvent event, GenericKubernetesResource object, boolean deleted) {
    if ("HeadroomConfig".equals(object.getKind())) {
      if (deleted) {
        projector.configDeleted();
        return;
      }
      LastGoodConfig verdict = projector.config(object).state();
      if (verdict.refused()) {
        warnings.accept("line " + event.lineNumber() + ": HeadroomConfig refused, keeping the last good one: "
            + verdict.refusal());
      }
    } else if ("VerticalPodAutoscaler".equals(object.getKind())) {
      String namespace = projector.vpa(object, deleted);
      if (namespace != null) {
        rejudge(podsIn(namespace));
      }
    }
  }

  private void applyPod(Pod pod, boolean deleted, PreparedItem prepared) {
    PodProjection.requireIdentity(pod); // a pod without a uid is malformed, not dropped
    String uid = pod.getMetadata().getUid();
    if (deleted) {
      podObjects.remove(uid);
      ownedLimits.remove(uid);
      projector.podDeleted(uid);
      return;
    }
    // Throws before any state changes: a pod that cannot be read leaves all as it was.
    PodSnapshot plain = prepared.plainPodOf(pod);
    Map<String, Long> owned = ownedLimits.get(uid);
    if (owned != null) {
      if (plain != null) {
        dropBelowRequest(owned, plain);
      }
      if (owned.isEmpty()) {
        ownedLimits.remove(uid);
      }
    }
    projector.pod(pod, plain);
    PodSnapshot published = projector.publishedPod(uid);
    if (published != null && published.terminal()) {
      podObjects.remove(uid);
    } else {
      podObjects.put(uid, pod);
    }
  }

  /** As ingest's loop after a VPA change: the pods projected again; one that cannot be keeps its last snapshot. */
  private void rejudge(List<Pod> pods) {
    for (Pod pod : pods) {
      try {
        projector.pod(pod);
      } catch (ProjectionException e) {
        // nothing published for it: live ingest counts it invalid, simulate has no such metric
      }
    }
  }

  private List<Pod> podsIn(String namespace) {
    List<Pod> in = new ArrayList<>();
    for (Pod pod : podObjects.values()) {
      if (namespace.equals(pod.getMetadata().getNamespace())) {
        in.add(pod);
      }
    }
    return in;
  }

  /**
   * A line that raises a container's request over the limit Headroom set gives that container back
   * the line's own limit: no API server holds a limit below its request, so the line's resize
   * (request and limit together) must have replaced Headroom's.
   */
  private static void dropBelowRequest(Map<String, Long> owned, PodSnapshot line) {
    for (ContainerSnapshot c : line.containers()) {
      Long limit = owned.get(c.name());
      if (limit != null && limit < c.cpuRequestMilli()) {
        owned.remove(c.name());
      }
    }
  }

  /** The simulated actuator: applies one pod's change at once, as a resize would. */
  void resize(PodChange change) {
    PodSnapshot pod = projector.publishedPod(change.uid());
    if (pod == null || pod.terminal()) {
      return; // gone meanwhile
    }
    for (ContainerChange t : change.containers()) {
      ContainerSnapshot now = container(pod, t.name());
      if (now != null && t.toMilli() > 0 && t.toMilli() < now.cpuRequestMilli()) {
        // The API server refuses a limit below its request (a decision made before the request
        // was raised, or on a node the pod has left): the resize does not happen.
        return;
      }
    }
    Map<String, Long> owned = ownedLimits.computeIfAbsent(change.uid(), k -> new HashMap<>());
    for (ContainerChange t : change.containers()) {
      Long before = owned.put(t.name(), t.toMilli());
      long was = before != null ? before : currentLimit(pod, t.name());
      if (was != t.toMilli()) {
        patches++;
      }
    }
    projector.resized(change.uid(), owned);
  }

  private static ContainerSnapshot container(PodSnapshot pod, String name) {
    for (ContainerSnapshot c : pod.containers()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }

  private static long currentLimit(PodSnapshot pod, String container) {
    for (ContainerSnapshot c : pod.containers()) {
      if (c.name().equals(container)) {
        return c.cpuLimitMilli();
      }
    }
    return 0;
  }
}
