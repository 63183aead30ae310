package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
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
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * fabric8 {@link Pod} → {@link PodSnapshot} (docs/design/pipeline.md "Records"). Pure and allocation-light:
 * ingest calls it for every informer event and {@code simulate} for every watch-log line.
 *
 * <p>Rules, in the order a reader of a pod spec would apply them:
 * <ul>
 *   <li>An unbound pod (no {@code spec.nodeName}) has no node to book: empty.
 *   <li>Containers: init containers first in spec order ({@code restartPolicy: Always} makes a
 *       sidecar, otherwise init), then app containers.
 *   <li>Per resource, a request that is absent while a limit is set defaults to the limit, as the
 *       API server's defaulting does; CPU amounts are millicores ({@link CpuQuantity}).
 *   <li>{@code memoryGuaranteed}: memory request and limit both set (after defaulting), non-zero
 *       and exactly equal.
 *   <li>{@code qosClass}: {@code status.qosClass}, or when absent (hand-written logs) computed the
 *       way Kubernetes does ({@link #computeQosClass}).
 *   <li>{@code kube-headroom.dev/max-cpu}: an unparseable value is kept raw in
 *       {@code maxCpuInvalid} and ignored ({@code maxCpuMilli} 0), never an error.
 *   <li>Resize: condition {@code PodResizePending} (reason Infeasible / Deferred) wins over
 *       {@code PodResizeInProgress}; the pre-1.33 {@code status.resize} field is read when no
 *       condition says anything.
 * </ul>
 * <ul>
 *   <li>{@code podLevelResources}: {@code spec.resources} sets any request or limit (Kubernetes'
 *       {@code IsPodLevelResourcesSet}; validation admits only cpu, memory and hugepages there).
 *       The API server refuses to resize such a pod, so it is never managed.
 * </ul>
 */
public final class PodProjection {
  static final String CPU = "cpu";
  static final String MEMORY = "memory";
  static final String QOS_GUARANTEED = "Guaranteed";
  static final String QOS_BURSTABLE = "Burstable";
  static final String QOS_BEST_EFFORT = "BestEffort";
  /** Stands for what the API server has not filled in at CREATE: the uid, a generated name, the node. */
  public static final String NOT_YET = "?";

  private PodProjection() {}

  /**
   * The snapshot of a bound pod, or empty when it is not bound to a node yet.
   *
   * @param vpaControlsLimits whether a VerticalPodAutoscaler that controls limits targets this pod;
   *     only the caller can resolve VPAs (see {@link VpaProjection})
   * @throws ProjectionException when the pod is invalid (no name, namespace or uid; a CPU quantity
   *     that does not parse; a null element in one of its lists)
   */
  public static Optional<PodSnapshot> project(Pod pod, boolean vpaControlsLimits) {
    String node = nodeName(pod);
    if (node == null) {
      return Optional.empty();
    }
    requireIdentity(pod);
    ObjectMeta meta = pod.getMetadata();
    return Optional.of(snapshot(pod, meta.getUid(), meta.getNamespace(), meta.getName(), node, vpaControlsLimits));
  }

  /**
   * The snapshot of a pod at CREATE, which the webhook judges by the eligibility gates the
   * topology judges the bound pod by: projected by the same rules, before the pod is bound (its
   * node {@link #NOT_YET}) or, with {@code generateName}, named; no VPA is known to target it.
   *
   * @param namespace the review's namespace, which a pod's metadata may leave out
   * @throws ProjectionException as {@link #project}
   */
  public static PodSnapshot atCreate(Pod pod, String namespace) {
    ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
    String node = nodeName(pod);
    return snapshot(pod, orNotYet(meta.getUid()), orNotYet(namespace), orNotYet(meta.getName()),
        node == null ? NOT_YET : node, false);
  }

  private static PodSnapshot snapshot(Pod pod, String uid, String namespace, String name, String node,
      boolean vpaControlsLimits) {
    NullElements.refuse(pod);
    ObjectMeta meta = pod.getMetadata();
    PodSpec spec = pod.getSpec();
    PodStatus status = pod.getStatus();
    try {
      List<ContainerSnapshot> containers = spec == null ? List.of() : containers(spec);
      String qos = status == null ? null : status.getQosClass();
      if (qos == null || qos.isEmpty()) {
        qos = computeQosClass(pod);
      }
      Map<String, String> labels = meta == null ? null : meta.getLabels();
      Map<String, String> annotations = meta == null ? null : meta.getAnnotations();
      String maxCpuRaw = annotations == null ? null : annotations.get(HeadroomKeys.MAX_CPU_ANNOTATION);
      var parsed = maxCpuRaw == null ? OptionalLong.empty() : CpuQuantity.tryParseMilli(maxCpuRaw);
      return new PodSnapshot(uid, namespace, name, node,
          status == null ? null : status.getPhase(),
          qos,
          meta == null ? null : meta.getResourceVersion(),
          meta == null || meta.getGeneration() == null ? 0 : Math.max(0, meta.getGeneration()),
          labels == null ? null : labels.get(HeadroomKeys.MODE_LABEL),
          parsed.orElse(0),
          parsed.isPresent() ? null : maxCpuRaw, // kept raw when it did not parse, and ignored
          vpaControlsLimits,
          owners(meta == null ? null : meta.getOwnerReferences()),
          containers,
          resizeStatus(status),
          podLevelResources(spec)).withGang(GangKey.annotationValue(annotations));
    } catch (IllegalArgumentException e) {
      throw new ProjectionException(ref(pod) + ": " + e.getMessage(), e);
    }
  }

  private static String orNotYet(String s) {
    return isBlank(s) ? NOT_YET : s;
  }

  /** The removal record for a deleted pod, or empty when it was never bound (nothing to remove). */
  public static Optional<PodRemoved> removed(Pod pod) {
    String node = nodeName(pod);
    if (node == null) {
      return Optional.empty();
    }
    requireIdentity(pod);
    ObjectMeta meta = pod.getMetadata();
    return Optional.of(new PodRemoved(meta.getUid(), meta.getNamespace(), meta.getName(), node));
  }

  /**
   * The pod's QoS class computed as Kubernetes' {@code ComputePodQOS} does, from requests (after
   * defaulting from limits) and limits of cpu and memory over app and init containers: nothing set
   * → BestEffort; every container has non-zero cpu and memory limits and the summed requests equal
   * the summed limits → Guaranteed; otherwise Burstable. Zero quantities count as unset.
   */
  public static String computeQosClass(Pod pod) {
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return QOS_BEST_EFFORT;
    }
    BigDecimal[] requests = new BigDecimal[2]; // cpu, memory; null = none
    BigDecimal[] limits = new BigDecimal[2];
    boolean guaranteed = true;
    boolean any = false;
    for (List<Container> list : List.of(nullSafe(spec.getContainers()), nullSafe(spec.getInitContainers()))) {
      for (Container c : list) {
        ResourceRequirements r = c.getResources();
        Map<String, Quantity> req = r == null ? null : r.getRequests();
        Map<String, Quantity> lim = r == null ? null : r.getLimits();
        boolean cpuLimit = false;
        boolean memLimit = false;
        for (int k = 0; k < 2; k++) {
          String resource = k == 0 ? CPU : MEMORY;
          BigDecimal limit = positive(lim, resource, c);
          BigDecimal request = positive(req, resource, c);
          if (request == null && (req == null || !req.containsKey(resource))) {
            request = limit; // defaulting: an absent request takes the limit
          }
          if (request != null) {
            requests[k] = requests[k] == null ? request : requests[k].add(request);
            any = true;
          }
          if (limit != null) {
            limits[k] = limits[k] == null ? limit : limits[k].add(limit);
            any = true;
            if (k == 0) {
              cpuLimit = true;
            } else {
              memLimit = true;
            }
          }
        }
        if (!cpuLimit || !memLimit) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return QOS_BEST_EFFORT;
    }
    if (guaranteed) {
      for (int k = 0; k < 2; k++) {
        boolean same = requests[k] == null
            ? limits[k] == null
            : limits[k] != null && requests[k].compareTo(limits[k]) == 0;
        if (!same) {
          guaranteed = false;
        }
      }
    }
    return guaranteed ? QOS_GUARANTEED : QOS_BURSTABLE;
  }

  /** Whether {@code spec.resources} sets any request or limit. */
  static boolean podLevelResources(PodSpec spec) {
    ResourceRequirements r = spec == null ? null : spec.getResources();
    return r != null && ((r.getRequests() != null && !r.getRequests().isEmpty())
        || (r.getLimits() != null && !r.getLimits().isEmpty()));
  }

  private static List<ContainerSnapshot> containers(PodSpec spec) {
    List<Container> init = nullSafe(spec.getInitContainers());
    List<Container> app = nullSafe(spec.getContainers());
    List<ContainerSnapshot> out = new ArrayList<>(init.size() + app.size());
    for (Container c : init) {
      ContainerKind kind = "Always".equals(c.getRestartPolicy()) ? ContainerKind.SIDECAR : ContainerKind.INIT;
      out.add(container(c, kind));
    }
    for (Container c : app) {
      out.add(container(c, ContainerKind.APP));
    }
    return out;
  }

  private static ContainerSnapshot container(Container c, ContainerKind kind) {
    ResourceRequirements r = c.getResources();
    Map<String, Quantity> req = r == null ? null : r.getRequests();
    Map<String, Quantity> lim = r == null ? null : r.getLimits();
    Quantity cpuLimitQ = lim == null ? null : lim.get(CPU);
    Quantity cpuRequestQ = req == null ? null : req.get(CPU);
    long cpuLimit = cpuLimitQ == null ? 0 : cpu(cpuLimitQ, c, "limits");
    long cpuRequest = cpuRequestQ != null ? cpu(cpuRequestQ, c, "requests") : cpuLimit;
    if (cpuLimit > 0 && cpuLimit < cpuRequest) { // the API server refuses to store it
      throw new IllegalArgumentException("container " + c.getName() + ": resources.limits.cpu "
          + CpuQuantity.format(cpuLimit) + " is below resources.requests.cpu " + CpuQuantity.format(cpuRequest));
    }
    Quantity memLimitQ = lim == null ? null : lim.get(MEMORY);
    Quantity memRequestQ = req == null ? null : req.get(MEMORY);
    boolean memoryGuaranteed = false;
    if (memLimitQ != null) {
      BigDecimal memLimit = quantity(memLimitQ, c, "limits.memory");
      BigDecimal memRequest = memRequestQ == null ? memLimit : quantity(memRequestQ, c, "requests.memory");
      memoryGuaranteed = memLimit.signum() > 0 && memLimit.compareTo(memRequest) == 0;
    }
    boolean cpuRestarts = false;
    List<ContainerResizePolicy> resizePolicy = c.getResizePolicy();
    if (resizePolicy != null) {
      for (ContainerResizePolicy p : resizePolicy) {
        if (CPU.equals(p.getResourceName()) && "RestartContainer".equals(p.getRestartPolicy())) {
          cpuRestarts = true;
        }
      }
    }
    return new ContainerSnapshot(c.getName(), kind, cpuRequest, cpuLimit, memoryGuaranteed, cpuRestarts);
  }

  private static long cpu(Quantity q, Container c, String where) {
    try {
      return CpuQuantity.parseMilli(q);
    } catch (QuantityFormatException e) {
      throw new IllegalArgumentException(
          "container " + c.getName() + ": resources." + where + ".cpu: " + e.getMessage(), e);
    }
  }

  private static BigDecimal quantity(Quantity q, Container c, String where) {
    try {
      return Quantities.parse(Quantities.text(q));
    } catch (QuantityFormatException e) {
      throw new IllegalArgumentException(
          "container " + c.getName() + ": resources." + where + ": " + e.getMessage(), e);
    }
  }

  /** The quantity when present and > 0, else null (Kubernetes' QoS code skips zero quantities). */
  private static BigDecimal positive(Map<String, Quantity> list, String resource, Container c) {
    Quantity q = list == null ? null : list.get(resource);
    if (q == null) {
      return null;
    }
    BigDecimal v = quantity(q, c, resource);
    return v.signum() > 0 ? v : null;
  }

  /** The kubelet's condition for a resize it has not applied (Kubernetes 1.33+). */
  public static final String RESIZE_PENDING = "PodResizePending";
  /** That condition's reason when the node can never fit the resize. */
  public static final String INFEASIBLE = "Infeasible";

  /**
   * The pod's true {@code PodResizePending} condition with reason {@code Infeasible}, if any: what
   * makes its resize status {@link ResizeStatus#INFEASIBLE}, and whose message says why.
   */
  public static Optional<PodCondition> infeasibleCondition(PodStatus status) {
    if (status == null || status.getConditions() == null) {
      return Optional.empty();
    }
    return status.getConditions().stream()
        .filter(c -> "True".equals(c.getStatus()) && RESIZE_PENDING.equals(c.getType())
            && INFEASIBLE.equals(c.getReason()))
        .findFirst();
  }

  static ResizeStatus resizeStatus(PodStatus status) {
    if (status == null) {
      return ResizeStatus.NONE;
    }
    boolean infeasible = infeasibleCondition(status).isPresent();
    boolean deferred = false;
    boolean inProgress = false;
    List<PodCondition> conditions = status.getConditions();
    if (conditions != null) {
      for (PodCondition c : conditions) {
        if (!"True".equals(c.getStatus())) {
          continue;
        }
        if (RESIZE_PENDING.equals(c.getType()) && "Deferred".equals(c.getReason())) {
          deferred = true;
        } else if ("PodResizeInProgress".equals(c.getType())) {
          inProgress = true;
        }
      }
    }
    if (infeasible) {
      return ResizeStatus.INFEASIBLE;
    }
    if (deferred) {
      return ResizeStatus.DEFERRED;
    }
    if (inProgress) {
      return ResizeStatus.IN_PROGRESS;
    }
    // Kubernetes 1.27–1.32 reported the same in status.resize (deprecated in 1.33).
    String legacy = status.getResize();
    if (legacy == null) {
      return ResizeStatus.NONE;
    }
    return switch (legacy) {
      case "Infeasible" -> ResizeStatus.INFEASIBLE;
      case "Deferred" -> ResizeStatus.DEFERRED;
      case "InProgress" -> ResizeStatus.IN_PROGRESS;
      default -> ResizeStatus.NONE;
    };
  }

  private static List<OwnerRef> owners(List<OwnerReference> refs) {
    if (refs == null || refs.isEmpty()) {
      return List.of();
    }
    List<OwnerRef> out = new ArrayList<>(refs.size());
    for (OwnerReference r : refs) {
      out.add(new OwnerRef(r.getKind(), r.getName(), r.getUid(), Boolean.TRUE.equals(r.getController())));
    }
    return out;
  }

  private static String nodeName(Pod pod) {
    if (pod == null || pod.getSpec() == null) {
      return null;
    }
    String node = pod.getSpec().getNodeName();
    return node == null || node.isEmpty() ? null : node;
  }

  /** @throws ProjectionException when the pod has no name, namespace or uid */
  public static void requireIdentity(Pod pod) {
    ObjectMeta meta = pod.getMetadata();
    if (meta == null || isBlank(meta.getName()) || isBlank(meta.getNamespace())
        || isBlank(meta.getUid())) {
      throw new ProjectionException(ref(pod) + ": metadata.name, namespace and uid are required");
    }
  }

  static String ref(Pod pod) {
    ObjectMeta meta = pod == null ? null : pod.getMetadata();
    return meta == null ? "Pod(?)" : "Pod(" + meta.getNamespace() + "/" + meta.getName() + ")";
  }

  private static boolean isBlank(String s) {
    return s == null || s.isEmpty();
  }

  private static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }
}
