package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * What the API server does to a pod at creation that matters to Headroom: requests default to
 * limits where a container sets a limit but no request ({@code SetDefaults_Pod}), CPU quantities
 * are stored canonically, and {@code status} is reset to {@code {phase: Pending, qosClass}}
 * ({@code podStrategy.PrepareForCreate}).
 */
final class PodDefaults {
  private PodDefaults() {}

  /** Applies the creation defaults in place; {@code keepStatus} is for seeding recorded state. */
  static void applyOnCreate(ObjectNode pod, boolean keepStatus) {
    JsonNode spec = pod.path("spec");
    defaultResources(spec);
    ObjectNode status = keepStatus && pod.path("status") instanceof ObjectNode s ? s : pod.putObject("status");
    if (!status.has("phase")) {
      status.put("phase", "Pending");
    }
    if (!status.has("qosClass")) {
      status.put("qosClass", QosClass.of(spec).name());
    }
  }

  /**
   * Requests default to limits and CPU quantities become canonical; the API server does both on
   * every write of a pod (defaulting runs when a request is decoded), a resize included.
   */
  static void defaultResources(JsonNode spec) {
    for (String list : new String[] {"initContainers", "containers"}) {
      for (JsonNode container : spec.path(list)) {
        JsonNode resources = container.path("resources");
        if (resources instanceof ObjectNode res && res.path("limits") instanceof ObjectNode limits) {
          ObjectNode requests = res.path("requests") instanceof ObjectNode r ? r : res.putObject("requests");
          for (Iterator<Map.Entry<String, JsonNode>> it = limits.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> limit = it.next();
            if (!requests.has(limit.getKey())) {
              requests.set(limit.getKey(), limit.getValue());
            }
          }
        }
        canonicalizeCpu(resources);
      }
    }
  }

  static void canonicalizeCpu(JsonNode resources) {
    for (String kind : new String[] {"requests", "limits"}) {
      if (resources.path(kind) instanceof ObjectNode quantities
          && quantities.path("cpu").isValueNode()
          && Quantities.isValid(quantities.path("cpu").asText())) {
        quantities.put("cpu", Quantities.canonicalCpu(quantities.path("cpu").asText()));
      }
    }
  }
}
