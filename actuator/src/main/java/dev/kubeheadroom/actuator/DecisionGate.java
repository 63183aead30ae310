package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the actuator checks a decision against before it resizes (issue #12: whoever can write
 * the decisions topic must not be able to resize any pod). Pure. A failed check is a
 * {@code rejected} outcome; the uid check stays {@link ResizePatcher}'s ({@code gone}).
 *
 * <ul>
 *   <li>{@link Rule#NAMESPACE}: the pod's namespace is known from the {@code namespaces} topic,
 *       not excluded, and managed under the <em>current</em> config
 *   <li>{@link Rule#AGE}: the decision was computed at most {@code maxDecisionAge} ago
 *   <li>{@link Rule#REQUEST}: no container's target is below its CPU request (the API server
 *       would refuse it too, but the request tells a forged or broken decision)
 * </ul>
 */
final class DecisionGate {
  private DecisionGate() {}

  /** Which check failed; its tag value on {@code headroom.actuator.rejected}. */
  enum Rule {
    NAMESPACE("namespace"), AGE("age"), REQUEST("request");

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

  /** The target ≥ request check against the pod as read; containers not found are not judged here. */
  static Optional<Rejection> belowRequest(PodWork work, Pod pod) {
    List<Container> containers = new ArrayList<>(pod.getSpec().getContainers());
    if (pod.getSpec().getInitContainers() != null) {
      containers.addAll(pod.getSpec().getInitContainers());
    }
    List<String> below = new ArrayList<>();
    for (ContainerChange t : work.change().containers()) {
      for (Container c : containers) {
        long request = c.getName().equals(t.name()) ? requestMilli(c) : 0;
        if (t.toMilli() < request) {
          below.add(t.name() + " " + Cpu.milli(t.toMilli()) + " < request " + Cpu.milli(request));
        }
      }
    }
    return below.isEmpty() ? Optional.empty()
        : reject(Rule.REQUEST, "target below the CPU request: " + String.join(", ", below));
  }

  private static long requestMilli(Container c) {
    if (c.getResources() == null || c.getResources().getRequests() == null) {
      return 0;
    }
    Map<String, Quantity> requests = c.getResources().getRequests();
    return Cpu.toMilli(requests.get("cpu"));
  }

  private static Optional<Rejection> reject(Rule rule, String message) {
    return Optional.of(new Rejection(rule, message));
  }
}
