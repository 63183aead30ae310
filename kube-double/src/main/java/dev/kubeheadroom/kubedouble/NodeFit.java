package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A resize refused by the API server because the pod's requests exceed its Node's allocatable:
 * 403 {@code Forbidden}, cause {@code NodeCapacity}, "node didn't have enough allocatable
 * resources: cpu, requested: 5000, allocatable: 4000" (cpu in millicores, memory in bytes, each
 * resource that does not fit, cpu first), as kube-apiserver v1.37 answers after LimitRanger and
 * before ResourceQuota (found by kube-real's differential suite and NodeAgentTest). The pod's
 * whole requests are compared with the whole allocatable, whatever the resize changes. Judged
 * only for a pod bound to a stored Node, and only for the resources its allocatable lists: the
 * double's tests often bind pods to Nodes they never store, or store a Node with its CPU only (a
 * real server refuses those too, {@code node "x" not found}, or counts a missing resource as 0;
 * see DESIGN.md).
 */
final class NodeFit {
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private NodeFit() {}

  static void check(ObjectNode pod, Function<String, Optional<ObjectNode>> nodes) {
    String nodeName = pod.path("spec").path("nodeName").asText("");
    Optional<ObjectNode> node = nodeName.isEmpty() ? Optional.empty() : nodes.apply(nodeName);
    if (node.isEmpty()) {
      return;
    }
    Map<String, BigDecimal> requested = PodResources.requests(pod, false);
    Map<String, BigDecimal> allocatable = PodResources.amounts(node.get().path("status").path("allocatable"));
    List<String> lacking = new ArrayList<>();
    for (String resource : List.of("cpu", "memory")) {
      BigDecimal want = requested.getOrDefault(resource, BigDecimal.ZERO);
      BigDecimal have = allocatable.get(resource);
      if (have != null && want.compareTo(have) > 0) {
        lacking.add(resource + ", requested: " + integer(resource, want) + ", allocatable: " + integer(resource, have));
      }
    }
    if (!lacking.isEmpty()) {
      String name = pod.path("metadata").path("name").asText();
      throw new ApiError(403, "Forbidden", "pods \"" + name + "\" is forbidden: node didn't have enough allocatable "
          + "resources: " + String.join("; ", lacking), "pods", name, "", "NodeCapacity").asFailure();
    }
  }

  /** As the server prints them: cpu in millicores, others in base units. */
  private static long integer(String resource, BigDecimal amount) {
    BigDecimal scaled = "cpu".equals(resource) ? amount.multiply(THOUSAND) : amount;
    return scaled.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
  }
}
