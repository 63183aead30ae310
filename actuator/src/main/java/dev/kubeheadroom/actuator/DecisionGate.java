package dev.kubeheadroom.actuator;

import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the actuator checks a decision against before it resizes (whoever can write
 * the decisions topic must not be able to resize any pod). Pure. A failed check is a
 * {@code rejected} outcome; the uid check stays {@link ResizePatcher}'s ({@code gone}).
 *
 * <ul>
 *   <li>{@link Rule#NAMESPACE}: the pod's namespace is known from the {@code namespaces} topic,
 *       not excluded, and managed under the <em>current</em> config
 *   <li>{@link Rule#AGE}: the decision was computed at most {@code maxDecisionAge} ago
 *   <li>{@link Rule#REQUEST}: no container's target is below its CPU request (the API server
 *       would refuse it too, but the request tells a forged or broken decision)
 *   <li>{@link Rule#LIMIT_RANGE}: no target exceeds what the namespace's LimitRanges allow (a
 *       container's {@code max.cpu} and {@code maxLimitRequestRatio.cpu}, the pod's
 *       {@code max.cpu} over its containers' limits), read as {@link LimitRangeCaps} from the
 *       {@code namespaces} topic: the caps ingest projects from the LimitRanges
 *       ({@code projection.LimitRangeCpu}), the ones the policy itself keeps targets within
 * </ul>
 */
final class DecisionGate {
  private DecisionGate() {}

  /** Which check failed; its tag value on {@code headroom.actuator.rejected}. */
  enum Rule {
    NAMESPACE("namespace"), AGE("age"), REQUEST("request"), LIMIT_RANGE("limitrange");

    private final String tag;

    Rule(String tag) {
      this.tag = tag;
    }

    String tag() {
      return tag;
    }
  }

  /** Why a decision is refused. */
  record Rejection(Rule rule, String message) {}

  /** The checks needing no pod read: namespace and age. */
  static Optional<Rejection> check(PodWork work, ClusterConfig config,
      Optional<NamespaceInfo> namespace, Instant now, Duration maxAge) {
    String ns = work.change().namespace();
    if (config.excludedNamespaces().contains(ns)) {
      return reject(Rule.NAMESPACE, "namespace " + ns + " is excluded");
    }
    if (namespace.isEmpty()) {
      return reject(Rule.NAMESPACE, "namespace " + ns + " is unknown (not on the namespaces topic)");
    }
    if (!config.manages(namespace.get())) {
      return reject(Rule.NAMESPACE, "namespace " + ns + " is not managed under config generation "
          + config.generation());
    }
    if (work.at() != null && Duration.between(work.at(), now).compareTo(maxAge) > 0) {
      return reject(Rule.AGE, "decision computed at " + work.at() + " is older than " + maxAge);
    }
    return Optional.empty();
  }

  /** The checks against the pod as read: {@link Rule#REQUEST}, then {@link Rule#LIMIT_RANGE}. */
  static Optional<Rejection> checkPod(PodWork work, Pod pod, LimitRangeCaps caps) {
    Optional<Rejection> below = belowRequest(work, pod);
    return below.isPresent() ? below : outsideLimitRange(work, pod, caps);
  }

  /** The target ≥ request check against the pod as read; containers not found are not judged here. */
  static Optional<Rejection> belowRequest(PodWork work, Pod pod) {
    List<Container> containers = containers(pod, true);
    List<String> below = new ArrayList<>();
    for (ContainerChange t : work.change().containers()) {
      for (Container c : containers) {
        long request = c.getName().equals(t.name()) ? requestMilli(c) : 0;
        if (t.toMilli() < request) {
          below.add(t.name() + " " + CpuQuantity.formatMilli(t.toMilli()) + " < request " + CpuQuantity.formatMilli(request));
        }
      }
    }
    return below.isEmpty() ? Optional.empty()
        : reject(Rule.REQUEST, "target below the CPU request: " + String.join(", ", below));
  }

  /**
   * The LimitRange check against the pod as read: each target within its container's cap (max
   * and ratio to the request, {@link LimitRangeCaps#containerCapMilli}), and the pod's limits —
   * targets where the decision sets them, the current limit elsewhere — within the pod max. The
   * pod sum covers regular containers and sidecars (restartable init containers), whose limits
   * run side by side; a pod with a container without a CPU limit is not summed (LimitRanger
   * would not have admitted it under a pod max).
   */
  static Optional<Rejection> outsideLimitRange(PodWork work, Pod pod, LimitRangeCaps caps) {
    if (caps.equals(LimitRangeCaps.NONE)) {
      return Optional.empty();
    }
    Map<String, Long> targets = new HashMap<>();
    work.change().containers().forEach(t -> targets.put(t.name(), t.toMilli()));
    List<String> over = new ArrayList<>();
    long podSum = 0;
    boolean summable = true;
    for (Container c : containers(pod, false)) {
      Long target = targets.get(c.getName());
      if (target != null) {
        long cap = caps.containerCapMilli(requestMilli(c));
        if (cap > 0 && target > cap) {
          over.add(c.getName() + " " + CpuQuantity.formatMilli(target) + " > LimitRange cap " + CpuQuantity.formatMilli(cap));
        }
      }
      long limit = target != null ? target : limitMilli(c);
      summable &= limit > 0;
      podSum = Long.MAX_VALUE - podSum < limit ? Long.MAX_VALUE : podSum + limit; // quantities may be huge
    }
    if (caps.podMaxMilli() > 0 && summable && podSum > caps.podMaxMilli()) {
      over.add("pod " + CpuQuantity.formatMilli(podSum) + " > LimitRange pod max " + CpuQuantity.formatMilli(caps.podMaxMilli()));
    }
    return over.isEmpty() ? Optional.empty()
        : reject(Rule.LIMIT_RANGE, "target above the namespace's LimitRange: " + String.join(", ", over));
  }

  /** Regular containers, then init containers: all of them, or only the sidecars among them. */
  private static List<Container> containers(Pod pod, boolean everyInit) {
    List<Container> containers = new ArrayList<>(pod.getSpec().getContainers());
    if (pod.getSpec().getInitContainers() != null) {
      pod.getSpec().getInitContainers().stream()
          .filter(c -> everyInit || "Always".equals(c.getRestartPolicy()))
          .forEach(containers::add);
    }
    return containers;
  }

  private static long limitMilli(Container c) {
    if (c.getResources() == null || c.getResources().getLimits() == null) {
      return 0;
    }
    return CpuQuantity.milliOrZero(c.getResources().getLimits().get("cpu"));
  }

  private static long requestMilli(Container c) {
    if (c.getResources() == null || c.getResources().getRequests() == null) {
      return 0;
    }
    Map<String, Quantity> requests = c.getResources().getRequests();
    return CpuQuantity.milliOrZero(requests.get("cpu"));
  }

  private static Optional<Rejection> reject(Rule rule, String message) {
    return Optional.of(new Rejection(rule, message));
  }
}
