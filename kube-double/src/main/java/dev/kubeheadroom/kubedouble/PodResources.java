package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pod's summed requests or limits, as {@code PodRequests} / {@code PodLimits} compute them
 * ({@code staging/src/k8s.io/component-helpers/resource/helpers.go}): app containers and sidecars
 * (restartable init containers) add up; a run-to-completion init container counts with the
 * sidecars declared before it, and the pod needs the larger of that and the sum.
 *
 * <p>With {@code useStatus} (what the quota evaluator does while in-place resize is on) an app
 * container that reports {@code status.containerStatuses[].resources} counts the largest of
 * desired (spec), allocated and actual; only actual and allocated once the kubelet has called the
 * resize Infeasible ({@code determineContainerReqs} / {@code determineContainerLimits}).
 * Init container statuses are not consulted (the kubelet double writes none). Pod-level
 * {@code spec.resources} are not modelled. Unparseable quantities are skipped.
 */
final class PodResources {
  private PodResources() {}

  /** Summed {@code requests} by resource name (base units: cores, bytes). */
  static Map<String, BigDecimal> requests(JsonNode pod, boolean useStatus) {
    return sum(pod, "requests", useStatus);
  }

  /** Summed {@code limits} by resource name; a container without a limit adds nothing. */
  static Map<String, BigDecimal> limits(JsonNode pod, boolean useStatus) {
    return sum(pod, "limits", useStatus);
  }

  /** One quantity list ({@code {cpu: "500m", ...}}) as amounts; bad quantities are skipped. */
  static Map<String, BigDecimal> amounts(JsonNode quantities) {
    Map<String, BigDecimal> out = new TreeMap<>();
    quantities.fields().forEachRemaining(q -> {
      if (q.getValue().isValueNode() && Quantities.isValid(q.getValue().asText())) {
        out.put(q.getKey(), Quantities.amount(q.getValue().asText()));
      }
    });
    return out;
  }

  /** The {@code status.containerStatuses[]} entry of {@code name}, or a missing node. */
  static JsonNode containerStatus(JsonNode pod, String name) {
    for (JsonNode entry : pod.path("status").path("containerStatuses")) {
      if (name.equals(entry.path("name").asText())) {
        return entry;
      }
    }
    return MissingNode.getInstance();
  }

  static boolean resizeInfeasible(JsonNode pod) {
    for (JsonNode condition : pod.path("status").path("conditions")) {
      if ("PodResizePending".equals(condition.path("type").asText())) {
        return "Infeasible".equals(condition.path("reason").asText());
      }
    }
    return false;
  }

  private static Map<String, BigDecimal> sum(JsonNode pod, String kind, boolean useStatus) {
    JsonNode spec = pod.path("spec");
    boolean infeasible = useStatus && resizeInfeasible(pod);
    Map<String, BigDecimal> total = new TreeMap<>();
    for (JsonNode container : spec.path("containers")) {
      add(total, useStatus ? withStatus(pod, container, kind, infeasible) : amounts(container.path("resources").path(kind)));
    }
    Map<String, BigDecimal> sidecars = new TreeMap<>();
    Map<String, BigDecimal> initMax = new TreeMap<>();
    for (JsonNode container : spec.path("initContainers")) {
      Map<String, BigDecimal> own = amounts(container.path("resources").path(kind));
      Map<String, BigDecimal> needed = new TreeMap<>(sidecars);
      add(needed, own);
      if ("Always".equals(container.path("restartPolicy").asText())) {
        add(total, own);
        add(sidecars, own);
        needed = new TreeMap<>(sidecars);
      }
      max(initMax, needed);
    }
    max(total, initMax);
    return total;
  }

  private static Map<String, BigDecimal> withStatus(JsonNode pod, JsonNode container, String kind, boolean infeasible) {
    Map<String, BigDecimal> desired = amounts(container.path("resources").path(kind));
    JsonNode status = containerStatus(pod, container.path("name").asText());
    if (!status.path("resources").isObject()) {
      return desired;
    }
    Map<String, BigDecimal> actual = amounts(status.path("resources").path(kind));
    Map<String, BigDecimal> allocated = kind.equals("requests")
        ? amounts(status.path("allocatedResources")) : new TreeMap<>();
    Map<String, BigDecimal> out = new TreeMap<>(actual);
    max(out, allocated);
    if (!infeasible) {
      max(out, desired);
    }
    return out;
  }

  static void add(Map<String, BigDecimal> into, Map<String, BigDecimal> more) {
    more.forEach((name, amount) -> into.merge(name, amount, BigDecimal::add));
  }

  private static void max(Map<String, BigDecimal> into, Map<String, BigDecimal> other) {
    other.forEach((name, amount) -> into.merge(name, amount, BigDecimal::max));
  }
}
