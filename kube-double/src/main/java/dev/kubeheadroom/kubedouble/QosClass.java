package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A pod's QoS class, computed as the API server does ({@code ComputePodQOS} in
 * {@code pkg/apis/core/helper/qos}): only {@code cpu} and {@code memory} count, zero quantities
 * count as absent, init containers count like app containers, and the sums are compared.
 *
 * <ul>
 *   <li>BestEffort: no container has a non-zero cpu or memory request or limit.
 *   <li>Guaranteed: every container has both a cpu and a memory limit, and for each resource the
 *       summed requests equal the summed limits.
 *   <li>Burstable: anything else.
 * </ul>
 *
 * <p>Expects requests already defaulted from limits (the API server does that at creation, see
 * {@link PodDefaults}). Pod-level {@code spec.resources} (alpha in 1.32+) are not modelled.
 */
public enum QosClass {
  Guaranteed, Burstable, BestEffort;

  private static final Set<String> QOS_RESOURCES = Set.of("cpu", "memory");

  /** Computes the class of a pod from its spec (the JSON of {@code spec}). */
  public static QosClass of(JsonNode podSpec) {
    Map<String, BigDecimal> requests = new HashMap<>();
    Map<String, BigDecimal> limits = new HashMap<>();
    boolean guaranteed = true;
    for (String list : new String[] {"initContainers", "containers"}) {
      for (JsonNode container : podSpec.path(list)) {
        JsonNode resources = container.path("resources");
        addPositive(resources.path("requests"), requests);
        Set<String> limitsFound = addPositive(resources.path("limits"), limits);
        if (!limitsFound.containsAll(QOS_RESOURCES)) {
          guaranteed = false;
        }
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return BestEffort;
    }
    if (guaranteed) {
      for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
        BigDecimal limit = limits.get(request.getKey());
        if (limit == null || limit.compareTo(request.getValue()) != 0) {
          guaranteed = false;
          break;
        }
      }
    }
    return guaranteed && requests.size() == limits.size() ? Guaranteed : Burstable;
  }

  private static Set<String> addPositive(JsonNode quantities, Map<String, BigDecimal> sums) {
    Set<String> found = new HashSet<>();
    quantities.fields().forEachRemaining(entry -> {
      if (!QOS_RESOURCES.contains(entry.getKey())) {
        return;
      }
      BigDecimal amount = Quantities.amount(entry.getValue().asText());
      if (amount.signum() > 0) {
        sums.merge(entry.getKey(), amount, BigDecimal::add);
        found.add(entry.getKey());
      }
    });
    return found;
  }
}
