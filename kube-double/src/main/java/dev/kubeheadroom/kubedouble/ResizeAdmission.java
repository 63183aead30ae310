package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a kubelet decides about a pod whose desired resources differ from what it runs
 * ({@code pkg/kubelet/allocation/allocation_manager.go} {@code handlePodResourcesResize} /
 * {@code canResizePod}, and the resize admit handler's {@code IsInPlacePodVerticalScalingAllowed}).
 *
 * <ul>
 *   <li>Infeasible: Windows pods, static pods; a Guaranteed pod whose cpu request changes on a node
 *       with the static CPU manager (the node carries the label or annotation
 *       {@value #CPU_MANAGER_POLICY}{@code : static}); a pod whose cpu requests exceed the node's
 *       {@code status.allocatable.cpu} (a kubelet before v1.36).
 *   <li>Deferred: a pod whose cpu requests exceed allocatable on a v1.36 or later kubelet, with the
 *       fit predicate's message ({@code Node didn't have enough resource: cpu, requested: …, used:
 *       …, capacity: …}), whether or not the requests changed.
 *   <li>Deferred: the requests changed and the node's other pods' allocated cpu requests plus this
 *       pod's do not fit allocatable now. Only requests are admitted against allocatable, so a
 *       change of limits alone is Deferred only where the requests already exceed it (above).
 *   <li>Otherwise the resize is admitted (allocated), then actuated.
 * </ul>
 *
 * <p>Node capacity is only judged when a Node object is stored; without one every resize fits.
 * Memory and pod-level resources are not judged.
 */
final class ResizeAdmission {
  /** Node label or annotation naming the kubelet's CPU manager policy ({@code none} by default). */
  static final String CPU_MANAGER_POLICY = "kube-double.dev/cpu-manager-policy";
  /**
   * The release whose kubelet moved resize admission into admit handlers
   * ({@code pkg/kubelet/allocation/handlers.go}, new in v1.36.0; v1.35.0's {@code canResizePod}
   * still answers Infeasible): requests above allocatable fail the fit predicate like any
   * other shortage, and every refusal but the handlers' own is Deferred.
   */
  static final int ADMIT_HANDLER_SINCE_MINOR = 36;

  private ResizeAdmission() {}

  /** What the kubelet does with the resize. */
  sealed interface Decision {
    /** Allocate and actuate. */
    record Admit() implements Decision {}

    /** {@code PodResizePending} with reason {@code Deferred} or {@code Infeasible}. */
    record Pending(String reason, String message) implements Decision {}

    /** Allocated but not actuated: {@code PodResizeInProgress}, reason empty or {@code Error}. */
    record Hold(String reason, String message) implements Decision {}
  }

  /**
   * @param programmed the answer a test programmed for the node
   * @param node the stored Node, if any
   * @param podsOnNode the other pods bound to the node (read only when requests change)
   * @param version the kubelet's release (requests above allocatable: Infeasible before
   *     {@value #ADMIT_HANDLER_SINCE_MINOR}, Deferred since)
   */
  static Decision decide(JsonNode pod, KubeletDouble.ResizeAnswer programmed, String message,
      Optional<JsonNode> node, Supplier<List<JsonNode>> podsOnNode, ServerVersion version) {
    switch (programmed) {
      case INFEASIBLE -> {
        return new Decision.Pending("Infeasible", message);
      }
      case IN_PROGRESS -> {
        return new Decision.Hold("", message);
      }
      case ACTUATION_ERROR -> {
        return new Decision.Hold("Error", message);
      }
      default -> { }
    }
    if ("windows".equals(pod.path("spec").path("os").path("name").asText())) {
      return new Decision.Pending("Infeasible", "In-place pod resize is not supported on Windows");
    }
    if (pod.path("metadata").path("annotations").has("kubernetes.io/config.mirror")) {
      return new Decision.Pending("Infeasible", "In-place resize of static-pods is not supported");
    }
    boolean requestsChanged = requestsChanged(pod, "cpu") || requestsChanged(pod, "memory");
    long requested = Quantities.cpuMilli(PodResources.requests(pod, false).get("cpu"));
    Optional<Long> allocatable = node.map(n -> n.path("status").path("allocatable").path("cpu"))
        .filter(q -> q.isValueNode() && Quantities.isValid(q.asText()))
        .map(q -> Quantities.cpuMilli(Quantities.amount(q.asText())));
    if (node.isPresent()) {
      if (QosClass.of(pod.path("spec")) == QosClass.Guaranteed && staticCpuManager(node.get())
          && requestsChanged(pod, "cpu")) {
        return new Decision.Pending("Infeasible",
            "Resize is infeasible for Guaranteed Pods alongside CPU Manager policy \"static\"");
      }
      if (allocatable.isPresent() && requested > allocatable.get()) {
        return version.atLeast(ADMIT_HANDLER_SINCE_MINOR)
            ? fitFailure(pod, requested, allocatable.get(), podsOnNode)
            : new Decision.Pending("Infeasible", "Node didn't have enough capacity: cpu, requested: "
                + requested + ", capacity: " + allocatable.get());
      }
    }
    if (requestsChanged && programmed == KubeletDouble.ResizeAnswer.DEFERRED) {
      return new Decision.Pending("Deferred", message);
    }
    if (requestsChanged && allocatable.isPresent()) {
      Decision.Pending deferred = fitFailure(pod, requested, allocatable.get(), podsOnNode);
      if (deferred != null) {
        return deferred;
      }
    }
    return new Decision.Admit();
  }

  /** The fit predicate's Deferred when the node's other pods and this one exceed allocatable, else null. */
  private static Decision.Pending fitFailure(JsonNode pod, long requested, long allocatable,
      Supplier<List<JsonNode>> podsOnNode) {
    String uid = pod.path("metadata").path("uid").asText();
    long used = podsOnNode.get().stream()
        .filter(other -> !uid.equals(other.path("metadata").path("uid").asText()))
        .filter(other -> !terminal(other))
        .mapToLong(ResizeAdmission::allocatedCpuMilli).sum();
    return used + requested > allocatable
        ? new Decision.Pending("Deferred", "Node didn't have enough resource: cpu, requested: "
            + requested + ", used: " + used + ", capacity: " + allocatable)
        : null;
  }

  /** Whether a container's desired request for {@code resource} differs from its allocation. */
  static boolean requestsChanged(JsonNode pod, String resource) {
    for (JsonNode container : pod.path("spec").path("containers")) {
      JsonNode status = PodResources.containerStatus(pod, container.path("name").asText());
      JsonNode allocated = status.has("allocatedResources") ? status.path("allocatedResources")
          : status.path("resources").path("requests");
      if (status.isMissingNode()) {
        continue;
      }
      BigDecimal want = PodResources.amounts(container.path("resources").path("requests")).get(resource);
      BigDecimal have = PodResources.amounts(allocated).get(resource);
      if (want == null ? have != null : have == null || want.compareTo(have) != 0) {
        return true;
      }
    }
    return false;
  }

  private static long allocatedCpuMilli(JsonNode pod) {
    long total = 0;
    for (JsonNode container : pod.path("spec").path("containers")) {
      JsonNode status = PodResources.containerStatus(pod, container.path("name").asText());
      Map<String, BigDecimal> requests = status.has("allocatedResources")
          ? PodResources.amounts(status.path("allocatedResources"))
          : PodResources.amounts(container.path("resources").path("requests"));
      total += Quantities.cpuMilli(requests.get("cpu"));
    }
    return total;
  }

  private static boolean staticCpuManager(JsonNode node) {
    JsonNode meta = node.path("metadata");
    return "static".equals(meta.path("labels").path(CPU_MANAGER_POLICY).asText())
        || "static".equals(meta.path("annotations").path(CPU_MANAGER_POLICY).asText());
  }

  private static boolean terminal(JsonNode pod) {
    String phase = pod.path("status").path("phase").asText("");
    return phase.equals("Succeeded") || phase.equals("Failed");
  }
}
