package dev.kubeheadroom.actuator;

import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One resize try (docs/design/headroom-design.txt §9.4): read the pod, refuse a pod whose uid differs from the decision's
 * (a replacement with the same name is {@code gone}, never patched), and a target below a
 * container's CPU request or above the namespace's LimitRange caps ({@code rejected},
 * {@link DecisionGate#checkPod}), then server-side apply on
 * {@code pods/resize} as field manager {@code headroom} carrying only
 * {@code spec.containers[*].resources.limits.cpu}.
 *
 * <p>The apply carries the limit of every container Headroom owns on the pod, not only the
 * changed ones: an apply that omits a leaf its manager applied before removes it (and a CPU limit
 * cannot be removed, so the server would answer 422). Owned = every regular container with a CPU
 * request > 0 and a CPU limit, and every sidecar (restartable init container) alike: the
 * decision's value for changed containers, the current one for the rest. Run-to-completion init
 * containers are never resized.
 */
final class ResizePatcher {
  static final String RESIZE = "resize";

  private static final PatchContext APPLY = new PatchContext.Builder()
      .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager(HeadroomKeys.FIELD_MANAGER)
      .withForce(true).build();

  private final ActuatorClient kube;
  private final KubernetesClient client;

  ResizePatcher(ActuatorClient kube) {
    this.kube = Objects.requireNonNull(kube, "kube");
    this.client = kube.kubernetes();
  }

  /**
   * What one try did: the verdict, whether a resize request was sent, and for a pod already at
   * its target the {@code kube-headroom.dev/status} annotation it has (null if none or unread).
   */
  record Attempt(Verdict verdict, boolean patchSent, String status) {
    Attempt(Verdict verdict, boolean patchSent) {
      this(verdict, patchSent, null);
    }
  }

  /** Reads the pod and checks it is the one the decision named; an ended verdict if not. */
  Verdict verify(PodWork work, LimitRangeCaps caps) {
    try {
      Pod pod = read(work);
      Verdict refused = refusal(work, pod, caps);
      return refused != null ? refused : new Verdict.Final(OutcomeResult.DRY_RUN, "");
    } catch (KubernetesClientException e) {
      return classify(e);
    }
  }

  /** One resize try; {@code caps}: the pod's namespace's LimitRange caps, as ingest published them. */
  Attempt resize(PodWork work, LimitRangeCaps caps) {
    Pod pod;
    try {
      pod = read(work);
    } catch (KubernetesClientException e) {
      return new Attempt(classify(e), false);
    }
    Verdict refused = refusal(work, pod, caps);
    if (refused != null) {
      return new Attempt(refused, false);
    }
    Body body = body(work, pod);
    if (body.changed().isEmpty()) {
      return new Attempt(new Verdict.Final(OutcomeResult.ERROR, body.problem()), false);
    }
    if (body.alreadyAtTarget()) {
      Map<String, String> annotations = pod.getMetadata().getAnnotations();
      return new Attempt(new Verdict.Final(OutcomeResult.APPLIED, "already at target"), false,
          annotations == null ? null : annotations.get(HeadroomKeys.STATUS_ANNOTATION));
    }
    try {
      client.pods().inNamespace(work.change().namespace()).resource(body.pod())
          .subresource(RESIZE).patch(APPLY);
      return new Attempt(new Verdict.Final(OutcomeResult.APPLIED, body.problem()), true);
    } catch (KubernetesClientException e) {
      return new Attempt(classify(e), true);
    }
  }

  /** Called right after the failed call, so the client's last answer is this call's. */
  private Verdict classify(KubernetesClientException e) {
    return OutcomeClassifier.classify(e, kube.lastRetryAfter());
  }

  private Pod read(PodWork work) {
    return client.pods().inNamespace(work.change().namespace()).withName(work.change().name()).get();
  }

  /** {@code gone} unless it is the pod the decision named, then the gate's pod checks. */
  private static Verdict refusal(PodWork work, Pod pod, LimitRangeCaps caps) {
    Verdict gone = goneUnlessSame(work, pod);
    if (gone != null) {
      return gone;
    }
    return DecisionGate.checkPod(work, pod, caps).map(r -> (Verdict) new Verdict.Rejected(r)).orElse(null);
  }

  private static Verdict goneUnlessSame(PodWork work, Pod pod) {
    if (pod == null) {
      return new Verdict.Final(OutcomeResult.GONE, "pod not found");
    }
    String uid = pod.getMetadata().getUid();
    if (!work.uid().equals(uid)) {
      return new Verdict.Final(OutcomeResult.GONE,
          "pod was replaced: uid is " + uid + ", the decision named " + work.uid());
    }
    return null;
  }

  /**
   * The apply body.
   *
   * @param pod the minimal pod to apply
   * @param changed names of the changed containers it carries
   * @param alreadyAtTarget every changed container already has its target (a re-delivered change)
   * @param problem what was left out and why ("" if nothing)
   */
  record Body(Pod pod, List<String> changed, boolean alreadyAtTarget, String problem) {}

  static Body body(PodWork work, Pod current) {
    Map<String, Long> targets = new LinkedHashMap<>();
    for (ContainerChange t : work.change().containers()) {
      targets.put(t.name(), t.toMilli());
    }
    List<String> changed = new ArrayList<>();
    boolean[] atTarget = {true};
    List<Container> applied = owned(current.getSpec().getContainers(), targets, changed, atTarget);
    List<Container> sidecars = new ArrayList<>();
    if (current.getSpec().getInitContainers() != null) {
      List<Container> restartable = current.getSpec().getInitContainers().stream()
          .filter(c -> "Always".equals(c.getRestartPolicy())).toList();
      sidecars = owned(restartable, targets, changed, atTarget);
    }
    List<String> problems = new ArrayList<>();
    if (!targets.isEmpty()) {
      problems.add("no such resizable container " + targets.keySet());
    }
    Pod pod = new PodBuilder().withApiVersion("v1").withKind("Pod")
        .withNewMetadata().withName(current.getMetadata().getName())
        .withNamespace(current.getMetadata().getNamespace()).withUid(current.getMetadata().getUid())
        .endMetadata()
        .withNewSpec().withContainers(applied).withInitContainers(sidecars).endSpec()
        .build();
    return new Body(pod, changed, atTarget[0], String.join("; ", problems));
  }

  /**
   * The limits Headroom owns among {@code containers}: targets for the named ones (taken out of
   * {@code targets}), current limits for the others that have a CPU request and limit.
   */
  private static List<Container> owned(List<Container> containers, Map<String, Long> targets,
      List<String> changed, boolean[] atTarget) {
    List<Container> applied = new ArrayList<>();
    for (Container c : containers) {
      Long target = targets.remove(c.getName());
      long limit = CpuQuantity.milliOrZero(limit(c.getResources(), "cpu", true));
      if (target != null) {
        changed.add(c.getName());
        atTarget[0] &= limit == target;
        applied.add(cpuLimit(c.getName(), target));
      } else if (CpuQuantity.milliOrZero(limit(c.getResources(), "cpu", false)) > 0 && limit > 0) {
        applied.add(cpuLimit(c.getName(), limit));
      }
    }
    return applied;
  }

  private static Container cpuLimit(String name, long milli) {
    return new ContainerBuilder().withName(name).withNewResources()
        .addToLimits("cpu", CpuQuantity.toQuantity(milli)).endResources().build();
  }

  private static Quantity limit(ResourceRequirements resources, String resource, boolean limits) {
    if (resources == null) {
      return null;
    }
    Map<String, Quantity> map = limits ? resources.getLimits() : resources.getRequests();
    return map == null ? null : map.get(resource);
  }
}
