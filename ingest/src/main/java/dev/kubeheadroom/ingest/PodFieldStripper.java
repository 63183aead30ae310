package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A copy of a pod holding only what {@code PodProjection} reads (docs/design/headroom-design.txt §7: the pod informer
 * covers every pod, so its cache must be small; §9.4.3):
 *
 * <ul>
 *   <li>metadata: name, namespace, uid, resourceVersion, generation, the {@code
 *       kube-headroom.dev/mode} label, the {@code kube-headroom.dev/max-cpu} annotation, owner
 *       references (kind, name, uid, controller);
 *   <li>spec: nodeName, overhead, containers and init containers with name, resources,
 *       resizePolicy and restartPolicy;
 *   <li>status: phase, qosClass, the {@code PodResize*} conditions (type, status, reason) and the
 *       pre-1.33 {@code status.resize}; the message of an {@code Infeasible} one too, which the
 *       {@code ResizeInfeasible} event quotes ({@link InfeasibleEvents}; rare, so it costs nothing).
 * </ul>
 *
 * <p>Memory, not correctness, drives the rest: fabric8 model objects allocate an empty list or
 * map for every collection field in their constructor, so the copy sets each one it leaves empty
 * to null (found once per class by reflection); repeated strings (namespaces, node names,
 * container names, phases) are interned; and CPU/memory {@link Quantity} values are shared
 * through a bounded table (they are never mutated after this point). Projecting the copy gives
 * the same {@code PodSnapshot} as projecting the original: the test suite checks this.
 */
public final class PodFieldStripper {
  /** Distinct quantities shared at most; beyond it each copy keeps its own (still correct). */
  static final int MAX_SHARED_QUANTITIES = 4096;

  private static final ClassValue<Field[]> COLLECTION_FIELDS = new ClassValue<>() {
    @Override
    protected Field[] computeValue(Class<?> type) {
      List<Field> out = new ArrayList<>();
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (!Modifier.isStatic(f.getModifiers())
              && (Collection.class.isAssignableFrom(f.getType()) || Map.class.isAssignableFrom(f.getType()))) {
            f.setAccessible(true);
            out.add(f);
          }
        }
      }
      return out.toArray(Field[]::new);
    }
  };

  private final Map<String, Quantity> quantities = new ConcurrentHashMap<>();

  /** The stripped copy; the argument is left untouched. Null in, null out. */
  public Pod strip(Pod pod) {
    if (pod == null) {
      return null;
    }
    Pod out = new Pod();
    out.setApiVersion(null);
    out.setKind(null);
    out.setMetadata(metadata(pod.getMetadata()));
    out.setSpec(spec(pod.getSpec()));
    out.setStatus(status(pod.getStatus()));
    return compact(out);
  }

  private ObjectMeta metadata(ObjectMeta in) {
    if (in == null) {
      return null;
    }
    ObjectMeta out = new ObjectMeta();
    out.setName(in.getName());
    out.setNamespace(intern(in.getNamespace()));
    out.setUid(in.getUid());
    out.setResourceVersion(in.getResourceVersion());
    out.setGeneration(in.getGeneration());
    out.setLabels(only(in.getLabels(), HeadroomKeys.MODE_LABEL));
    out.setAnnotations(only(in.getAnnotations(), HeadroomKeys.MAX_CPU_ANNOTATION));
    List<OwnerReference> owners = in.getOwnerReferences();
    if (owners != null && !owners.isEmpty()) {
      List<OwnerReference> kept = new ArrayList<>(owners.size());
      for (OwnerReference o : owners) {
        OwnerReference r = new OwnerReference();
        r.setKind(intern(o.getKind()));
        r.setName(o.getName());
        r.setUid(o.getUid());
        r.setController(o.getController());
        kept.add(compact(r));
      }
      out.setOwnerReferences(List.copyOf(kept));
    }
    return compact(out);
  }

  private PodSpec spec(PodSpec in) {
    if (in == null) {
      return null;
    }
    PodSpec out = new PodSpec();
    out.setNodeName(intern(in.getNodeName()));
    out.setOverhead(quantities(in.getOverhead()));
    out.setContainers(containers(in.getContainers()));
    out.setInitContainers(containers(in.getInitContainers()));
    return compact(out);
  }

  private List<Container> containers(List<Container> in) {
    if (in == null || in.isEmpty()) {
      return null;
    }
    List<Container> out = new ArrayList<>(in.size());
    for (Container c : in) {
      Container k = new Container();
      k.setName(intern(c.getName()));
      k.setRestartPolicy(intern(c.getRestartPolicy()));
      ResourceRequirements r = c.getResources();
      if (r != null) {
        ResourceRequirements kr = new ResourceRequirements();
        kr.setRequests(quantities(r.getRequests()));
        kr.setLimits(quantities(r.getLimits()));
        k.setResources(compact(kr));
      }
      List<ContainerResizePolicy> policies = c.getResizePolicy();
      if (policies != null && !policies.isEmpty()) {
        List<ContainerResizePolicy> kept = new ArrayList<>(policies.size());
        for (ContainerResizePolicy p : policies) {
          kept.add(compact(new ContainerResizePolicy(intern(p.getResourceName()), intern(p.getRestartPolicy()))));
        }
        k.setResizePolicy(List.copyOf(kept));
      }
      out.add(compact(k));
    }
    return List.copyOf(out);
  }

  private PodStatus status(PodStatus in) {
    if (in == null) {
      return null;
    }
    PodStatus out = new PodStatus();
    out.setPhase(intern(in.getPhase()));
    out.setQosClass(intern(in.getQosClass()));
    out.setResize(intern(in.getResize()));
    List<PodCondition> conditions = in.getConditions();
    if (conditions != null) {
      List<PodCondition> kept = null;
      for (PodCondition c : conditions) {
        if (c.getType() != null && c.getType().startsWith("PodResize")) {
          PodCondition k = new PodCondition();
          k.setType(intern(c.getType()));
          k.setStatus(intern(c.getStatus()));
          k.setReason(intern(c.getReason()));
          if (PodProjection.RESIZE_PENDING.equals(c.getType())
              && PodProjection.INFEASIBLE.equals(c.getReason())) {
            k.setMessage(c.getMessage());
          }
          if (kept == null) {
            kept = new ArrayList<>(2);
          }
          kept.add(compact(k));
        }
      }
      out.setConditions(kept == null ? null : List.copyOf(kept));
    }
    return compact(out);
  }

  private Map<String, Quantity> quantities(Map<String, Quantity> in) {
    if (in == null || in.isEmpty()) {
      return null;
    }
    if (in.size() == 1) {
      Map.Entry<String, Quantity> e = in.entrySet().iterator().next();
      return Map.of(intern(e.getKey()), share(e.getValue()));
    }
    Map<String, Quantity> out = new java.util.HashMap<>(in.size() * 2);
    in.forEach((k, v) -> out.put(intern(k), share(v)));
    return Map.copyOf(out);
  }

  private Quantity share(Quantity q) {
    if (q == null) {
      return null;
    }
    String key = q.getAmount() + "|" + q.getFormat();
    Quantity shared = quantities.get(key);
    if (shared != null) {
      return shared;
    }
    Quantity copy = compact(new Quantity(intern(q.getAmount()), intern(q.getFormat())));
    if (quantities.size() < MAX_SHARED_QUANTITIES) {
      Quantity raced = quantities.putIfAbsent(key, copy);
      return raced == null ? copy : raced;
    }
    return copy;
  }

  private static Map<String, String> only(Map<String, String> in, String key) {
    String v = in == null ? null : in.get(key);
    return v == null ? null : Map.of(key, v);
  }

  private static String intern(String s) {
    return s == null ? null : s.intern();
  }

  /** Sets every empty collection or map field of a freshly built model object to null. */
  static <T> T compact(T object) {
    for (Field f : COLLECTION_FIELDS.get(object.getClass())) {
      try {
        Object v = f.get(object);
        if (v instanceof Collection<?> c && c.isEmpty() || v instanceof Map<?, ?> m && m.isEmpty()) {
          f.set(object, null);
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot compact " + object.getClass().getSimpleName(), e);
      }
    }
    return object;
  }
}
