package dev.kubeheadroom.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.policy.Saturating;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.ProjectionException;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.webhook.BirthDecision.SeededLimit;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The birth limit (docs/design/headroom-design.txt §6.5): pure, no I/O, no clock. All CPU amounts are integer millicores.
 *
 * <p>A pod at CREATE gets a seeded CPU limit on each container that has a CPU request and no CPU
 * limit (app containers and restartable init containers, i.e. sidecars; plain init containers are
 * never touched), when all hold: webhook enabled, not dry-run, a boost above 1, the namespace known,
 * and the pod, projected as ingest projects it ({@link PodProjection#atCreate}), passes the
 * eligibility gates the topology judges ({@link Ineligibility#first}: a Windows pod as on a node
 * that cannot resize, the namespace managed, not opted out, no pod-level {@code spec.resources},
 * Burstable, a CPU request, no container that resizes CPU with {@code RestartContainer}).
 *
 * <p>Per seeded container with request {@code r}, in pipeline order:
 * <ol>
 *   <li>{@code m = initialMultiplier}, capped by {@code maxMultiplier} when that is > 0;
 *       {@code raw = round(r·m)}.
 *   <li>{@code hi}: the namespace's LimitRange container max and limit/request ratio for
 *       {@code r}, and the container's pro-rata share of the pod's budget ({@link #budget}: the
 *       {@code kube-headroom.dev/max-cpu} cap, the LimitRange pod max and ratio, less the limits
 *       its other containers already have); never below {@code r}. LimitRanger checks the pod
 *       after this webhook, so a seeded pod it would refuse is never produced. An unparseable or
 *       zero annotation is ignored.
 *   <li>{@code raw = min(raw, hi)}; quantized by the policy's own step 4
 *       ({@link SlackPolicy#quantize}): the nearest {@code quantum}, one quantum back if that
 *       crosses {@code hi}, never below {@code r}.
 *   <li>A result equal to {@code r} seeds nothing: the container keeps no limit, so the pod stays
 *       Burstable and the controller can still raise it later.
 * </ol>
 * A pod whose QoS class would change is left alone (it cannot, given the rules above; checked).
 */
public final class BirthLimit {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String CPU = "cpu";

  private BirthLimit() {}

  /**
   * @param namespace the pod's namespace as last seen on the namespaces topic; null when unknown
   */
  public static BirthDecision decide(Pod pod, NamespaceInfo namespace, ClusterConfig config) {
    if (!config.webhook().enabled()) {
      return unchanged(AllowReason.WEBHOOK_DISABLED);
    }
    if (config.dryRun()) {
      return unchanged(AllowReason.DRY_RUN);
    }
    double multiplier = multiplier(config);
    if (!(multiplier > 1.0)) {
      return unchanged(AllowReason.NO_BOOST);
    }
    if (namespace == null) {
      return unchanged(AllowReason.NAMESPACE_UNKNOWN);
    }
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return unchanged(AllowReason.NOTHING_TO_SEED);
    }
    PodSnapshot atCreate;
    try {
      atCreate = PodProjection.atCreate(pod, namespace.name());
    } catch (ProjectionException invalid) {
      return unchanged(AllowReason.INVALID_POD); // validation, after admission, refuses it
    }
    Ineligibility gate = Ineligibility.first(
        Ineligibility.ofSnapshot(atCreate, atCreate.effectiveRequestMilli()),
        !windows(spec), // a Windows pod only runs on a node that cannot resize in place
        config.manages(namespace));
    if (gate != null) {
      return BirthDecision.Unchanged.because(gate);
    }
    List<Slot> slots = slots(spec);

    // Which containers get a limit, the limits the others already have, and the pod's requests.
    List<Slot> seeded = new ArrayList<>();
    long seededRequests = 0;
    long otherLimits = 0;
    long podRequests = 0;
    boolean sidecarSeen = false;
    long initBesideSidecars = 0;
    for (Slot s : slots) {
      if (!s.counts()) {
        if (sidecarSeen) { // runs beside the sidecars before it: LimitRanger sums their limits
          initBesideSidecars = Math.max(initBesideSidecars, cpuLimit(s.container()));
        }
        continue;
      }
      sidecarSeen |= s.sidecar();
      long request = request(s.container());
      podRequests = Saturating.add(podRequests, request);
      Map<String, Quantity> limits = limits(s.container());
      if (limits != null && limits.containsKey(CPU)) {
        otherLimits = Saturating.add(otherLimits, cpuLimit(s.container()));
        continue;
      }
      if (request > 0) {
        seeded.add(s.withRequest(request));
        seededRequests = Saturating.add(seededRequests, request);
      }
    }
    if (seeded.isEmpty()) {
      return unchanged(AllowReason.NOTHING_TO_SEED);
    }

    LimitRangeCaps caps = namespace.limitRangeCaps();
    long budget = budget(podCap(pod), caps, otherLimits, podRequests, initBesideSidecars);
    List<SeededLimit> limits = new ArrayList<>();
    List<PatchOp> patch = new ArrayList<>();
    List<Slot> limited = new ArrayList<>();
    for (Slot s : seeded) {
      long r = s.requestMilli();
      long hi = Long.MAX_VALUE;
      long containerCap = caps.containerCapMilli(r);
      if (containerCap > 0) {
        hi = Math.min(hi, containerCap);
      }
      if (budget >= 0) {
        hi = Math.min(hi, share(budget, r, seededRequests));
      }
      hi = Math.max(hi, r);
      long raw = Math.min(Math.round(r * multiplier), hi);
      long limit = SlackPolicy.quantize(Math.max(raw, r), r, hi, config.quantumMilli());
      if (limit <= r) {
        continue;
      }
      limits.add(new SeededLimit(s.container().getName(), s.sidecar(), r, limit));
      patch.add(patchFor(s, limit));
      limited.add(s.withLimit(limit));
    }
    if (limits.isEmpty()) {
      return unchanged(AllowReason.NOTHING_TO_SEED);
    }
    if (changesQos(pod, limited)) {
      return unchanged(AllowReason.WOULD_CHANGE_QOS);
    }
    return new BirthDecision.Seed(limits, patch);
  }

  /** {@code min(initialMultiplier, maxMultiplier)}, where a maxMultiplier of 0 is no cap. */
  static double multiplier(ClusterConfig config) {
    double m = config.webhook().initialMultiplier();
    return config.maxMultiplier() > 0 ? Math.min(m, config.maxMultiplier()) : m;
  }

  /**
   * What the seeded limits may sum to, or -1 for no bound. LimitRanger checks the pod after this
   * webhook (a violation fails the create), so the sum must keep, with the limits the pod's other
   * containers already have: the max-cpu annotation (Headroom's own cap); the LimitRange pod max
   * (plus an init container's limit that runs beside the sidecars); and the limit/request ratio
   * over the pod's summed requests.
   */
  static long budget(long podCap, LimitRangeCaps caps, long otherLimits, long podRequests,
      long initBesideSidecars) {
    long budget = -1;
    if (podCap > 0) {
      budget = tighterBudget(budget, Saturating.subtract(podCap, otherLimits));
    }
    if (caps.podMaxMilli() > 0) {
      budget = tighterBudget(budget, Saturating.subtract(
          Saturating.subtract(caps.podMaxMilli(), otherLimits), initBesideSidecars));
    }
    if (caps.ratioMilli() > 0 && podRequests > 0) {
      budget = tighterBudget(budget, Saturating.subtract(
          LimitRangeCaps.ratioCapMilli(podRequests, caps.ratioMilli()), otherLimits));
    }
    return budget;
  }

  private static long tighterBudget(long budget, long candidate) {
    long bounded = Math.max(0, candidate);
    return budget < 0 ? bounded : Math.min(budget, bounded);
  }

  /** floor(budget · request / total): the seeded containers' parts never sum above the budget. */
  private static long share(long budget, long request, long total) {
    return BigInteger.valueOf(budget).multiply(BigInteger.valueOf(request))
        .divide(BigInteger.valueOf(total)).longValue();
  }

  private static long podCap(Pod pod) {
    Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
    String raw = annotations == null ? null : annotations.get(HeadroomKeys.MAX_CPU_ANNOTATION);
    if (raw == null) {
      return 0;
    }
    OptionalLong parsed = CpuQuantity.tryParseMilli(raw.trim());
    return parsed.orElse(0); // unparseable: ignored, never an error (docs/design/config.md)
  }

  private static PatchOp patchFor(Slot s, long limitMilli) {
    String cpu = CpuQuantity.format(limitMilli);
    ResourceRequirements resources = s.container().getResources();
    Map<String, Quantity> limits = resources == null ? null : resources.getLimits();
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (resources == null) {
      ObjectNode value = f.objectNode();
      value.putObject("limits").put(CPU, cpu);
      return PatchOp.add(PatchOp.pointer("spec", s.list(), s.index(), "resources"), value);
    }
    if (limits == null || limits.isEmpty()) {
      // Creates "limits", or replaces an empty one: correct whichever the JSON had.
      return PatchOp.add(PatchOp.pointer("spec", s.list(), s.index(), "resources", "limits"),
          f.objectNode().put(CPU, cpu));
    }
    return PatchOp.add(PatchOp.pointer("spec", s.list(), s.index(), "resources", "limits", CPU),
        f.textNode(cpu));
  }

  private static boolean changesQos(Pod pod, List<Slot> limited) {
    Pod copy = MAPPER.convertValue(pod, Pod.class);
    for (Slot s : limited) {
      List<Container> list = s.init() ? copy.getSpec().getInitContainers() : copy.getSpec().getContainers();
      Container c = list.get(s.index());
      if (c.getResources() == null) {
        c.setResources(new ResourceRequirements());
      }
      if (c.getResources().getLimits() == null) {
        c.getResources().setLimits(new LinkedHashMap<>());
      }
      c.getResources().getLimits().put(CPU, CpuQuantity.toQuantity(s.limitMilli()));
    }
    return !PodProjection.computeQosClass(pod).equals(PodProjection.computeQosClass(copy));
  }

  private static List<Slot> slots(PodSpec spec) {
    List<Slot> out = new ArrayList<>();
    List<Container> init = spec.getInitContainers();
    if (init != null) {
      for (int i = 0; i < init.size(); i++) {
        boolean sidecar = "Always".equals(init.get(i).getRestartPolicy());
        out.add(new Slot(init.get(i), "initContainers", i, sidecar, true, 0, 0));
      }
    }
    List<Container> app = spec.getContainers();
    if (app != null) {
      for (int i = 0; i < app.size(); i++) {
        out.add(new Slot(app.get(i), "containers", i, false, false, 0, 0));
      }
    }
    return out;
  }

  private static boolean windows(PodSpec spec) {
    return spec.getOs() != null && "windows".equalsIgnoreCase(spec.getOs().getName());
  }

  private static Map<String, Quantity> limits(Container c) {
    return c.getResources() == null ? null : c.getResources().getLimits();
  }

  /** The CPU limit in millicores; 0 when absent or unparseable. */
  private static long cpuLimit(Container c) {
    Map<String, Quantity> limits = limits(c);
    return limits == null ? 0 : CpuQuantity.milliOrZero(limits.get(CPU));
  }

  /** The CPU request in millicores; 0 when absent or unparseable (such a container is skipped). */
  private static long request(Container c) {
    Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
    return requests == null ? 0 : CpuQuantity.milliOrZero(requests.get(CPU));
  }

  private static BirthDecision unchanged(AllowReason reason) {
    return BirthDecision.Unchanged.because(reason);
  }

  /**
   * A container and where it sits in the spec.
   *
   * @param init whether it is in {@code initContainers}
   */
  private record Slot(Container container, String list, int index, boolean sidecar, boolean init,
      long requestMilli, long limitMilli) {
    /** App containers and sidecars hold a limit for the pod's life; plain init containers don't. */
    boolean counts() {
      return !init || sidecar;
    }

    Slot withRequest(long request) {
      return new Slot(container, list, index, sidecar, init, request, limitMilli);
    }

    Slot withLimit(long limit) {
      return new Slot(container, list, index, sidecar, init, requestMilli, limit);
    }
  }
}
