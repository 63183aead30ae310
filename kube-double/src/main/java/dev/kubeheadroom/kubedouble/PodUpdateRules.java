package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The API server's validation of a patched pod against the stored one, for the two writes
 * Headroom makes: a resize ({@code pods/resize}) and a metadata patch on {@code pods}.
 *
 * <p>Messages follow {@code kube-apiserver}'s wording so that client-side error handling sees the
 * same text. Where the double is stricter than a real server it says so in the message.
 */
final class PodUpdateRules {
  private static final Set<String> BOOKKEEPING =
      Set.of("resourceVersion", "generation", "managedFields", "creationTimestamp", "uid", "selfLink");
  private static final Set<String> RESIZABLE = Set.of("cpu", "memory");

  private PodUpdateRules() {}

  /**
   * 422 when the patch body carries a uid that is not the object's: a PATCH has no precondition
   * (only a PUT's {@code Preconditions} give 409), the uid is simply an immutable field
   * ({@code ValidateObjectMetaUpdate}, run by {@code rest.BeforeUpdate} on every update). 409 when
   * it carries a stale resourceVersion (the store's optimistic-concurrency check).
   */
  static void checkPreconditions(JsonNode current, JsonNode patch) {
    JsonNode meta = patch.path("metadata");
    String uid = meta.path("uid").asText("");
    String currentUid = current.path("metadata").path("uid").asText("");
    String name = current.path("metadata").path("name").asText();
    if (!uid.isEmpty() && !uid.equals(currentUid)) {
      throw ApiError.invalid("Pod", name, "metadata.uid",
          "Invalid value: \"" + uid + "\": field is immutable").asFailure();
    }
    String version = meta.path("resourceVersion").asText("");
    if (!version.isEmpty() && !version.equals(current.path("metadata").path("resourceVersion").asText())) {
      throw ApiError.conflict("pods", name,
          "the object has been modified; please apply your changes to the latest version and try again")
          .asFailure();
    }
  }

  /**
   * Validates a resize. A real server silently drops changes to anything but container resources
   * (its resize strategy copies only those); the double answers 422 instead so that a client bug
   * that sends more than resources is caught.
   */
  static void validateResize(ObjectNode current, ObjectNode merged) {
    String name = current.path("metadata").path("name").asText();
    refuseUnresizablePod(name, current, merged);
    sameContainers(name, "containers", current, merged);
    sameContainers(name, "initContainers", current, merged);
    // Only restartable init containers (sidecars) are resizable, as on a 1.33+ API server.
    JsonNode oldInits = current.path("spec").path("initContainers");
    JsonNode newInits = merged.path("spec").path("initContainers");
    for (int i = 0; i < oldInits.size(); i++) {
      boolean sidecar = "Always".equals(oldInits.get(i).path("restartPolicy").asText());
      if (!sidecar && !oldInits.get(i).path("resources").equals(newInits.get(i).path("resources"))) {
        throw ApiError.invalid("Pod", name, "spec.initContainers[" + i + "].resources",
            "Forbidden: only restartable init containers (sidecars) may be resized").asFailure();
      }
    }
    ObjectNode oldRest = withoutResources(current);
    ObjectNode newRest = withoutResources(merged);
    if (!oldRest.path("spec").equals(newRest.path("spec"))) {
      throw ApiError.invalid("Pod", name, "spec", "Forbidden: a resize may only change "
          + "container resources (kube-double refuses; a real API server drops the other "
          + "changes silently)").asFailure();
    }
    if (!metadataWithoutBookkeeping(current).equals(metadataWithoutBookkeeping(merged))
        || !current.path("status").equals(merged.path("status"))) {
      throw ApiError.invalid("Pod", name, "metadata", "Forbidden: a resize may only change "
          + "container resources (kube-double refuses; a real API server drops the other "
          + "changes silently)").asFailure();
    }
    JsonNode oldContainers = current.path("spec").path("containers");
    JsonNode newContainers = merged.path("spec").path("containers");
    for (int i = 0; i < oldContainers.size(); i++) {
      validateContainer(name, "spec.containers[" + i + "].resources",
          oldContainers.get(i).path("resources"), newContainers.get(i).path("resources"));
    }
    for (int i = 0; i < oldInits.size(); i++) {
      validateContainer(name, "spec.initContainers[" + i + "].resources",
          oldInits.get(i).path("resources"), newInits.get(i).path("resources"));
    }
    String oldQos = current.path("status").path("qosClass").asText("");
    if (oldQos.isEmpty()) {
      oldQos = QosClass.of(current.path("spec")).name();
    }
    if (!oldQos.equals(QosClass.of(merged.path("spec")).name())) {
      // field.Invalid(specPath, oldQoS, ...) in ValidatePodResize: the value is the class it had
      throw ApiError.invalid("Pod", name, "spec",
          "Invalid value: \"" + oldQos + "\": Pod QOS Class may not change as a result of resizing").asFailure();
    }
  }

  /**
   * The pods {@code ValidatePodResize} ({@code pkg/apis/core/validation/validation.go}) refuses
   * whatever the change: pod-level {@code spec.resources} (with the 1.35 default gates), static
   * pods (mirror annotation), Windows pods — each alone, with an empty field path — and a pod
   * whose first running container reports no {@code resources} ({@code isPodResizeRequestSupported}:
   * its node's kubelet cannot resize).
   */
  private static void refuseUnresizablePod(String name, JsonNode current, JsonNode merged) {
    for (JsonNode pod : new JsonNode[] {current, merged}) {
      JsonNode podLevel = pod.path("spec").path("resources");
      if (podLevel.path("requests").size() + podLevel.path("limits").size() > 0) {
        throw ApiError.invalid("Pod", name, "", "Forbidden: pods with pod-level resources cannot be resized").asFailure();
      }
    }
    if (current.path("metadata").path("annotations").has("kubernetes.io/config.mirror")) {
      throw ApiError.invalid("Pod", name, "", "Forbidden: static pods cannot be resized").asFailure();
    }
    if ("windows".equals(current.path("spec").path("os").path("name").asText())) {
      throw ApiError.invalid("Pod", name, "", "Forbidden: windows pods cannot be resized").asFailure();
    }
    for (JsonNode status : current.path("status").path("containerStatuses")) {
      if (status.path("state").path("running").isObject()) {
        if (!status.path("resources").isObject()) {
          throw ApiError.invalid("Pod", name, "spec",
              "Forbidden: Pod running on node without support for resize").asFailure();
        }
        break;
      }
    }
  }

  /** A resize may neither add, remove, rename nor reorder the containers of {@code list}. */
  private static void sameContainers(String name, String list, ObjectNode current, ObjectNode merged) {
    JsonNode oldContainers = current.path("spec").path(list);
    JsonNode newContainers = merged.path("spec").path(list);
    if (newContainers.size() != oldContainers.size()) {
      Set<String> known = new LinkedHashSet<>();
      oldContainers.forEach(c -> known.add(c.path("name").asText()));
      for (JsonNode c : newContainers) {
        if (!known.contains(c.path("name").asText())) {
          throw ApiError.invalid("Pod", name, "spec." + list + "[name=" + c.path("name").asText() + "]",
              "Not found: container does not exist in the pod (known: " + known + ")").asFailure();
        }
      }
      throw ApiError.invalid("Pod", name, "spec." + list,
          "Forbidden: containers may not be added or removed by a resize").asFailure();
    }
    for (int i = 0; i < oldContainers.size(); i++) {
      if (!oldContainers.get(i).path("name").equals(newContainers.get(i).path("name"))) {
        throw ApiError.invalid("Pod", name, "spec." + list + "[" + i + "].name",
            "Forbidden: containers may not be renamed or reordered").asFailure();
      }
    }
  }

  private static void validateContainer(String pod, String field, JsonNode before, JsonNode after) {
    for (String kind : new String[] {"requests", "limits"}) {
      JsonNode oldQ = before.path(kind);
      JsonNode newQ = after.path(kind);
      for (Iterator<Map.Entry<String, JsonNode>> it = newQ.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> q = it.next();
        String text = q.getValue().asText();
        if (!q.getValue().isValueNode() || !Quantities.isValid(text)) {
          throw ApiError.invalid("Pod", pod, field + "." + kind + "[" + q.getKey() + "]",
              "Invalid value: \"" + text + "\": quantities must match the regular expression "
                  + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'").asFailure();
        }
        if (Quantities.amount(text).signum() < 0) {
          throw ApiError.invalid("Pod", pod, field + "." + kind + "[" + q.getKey() + "]",
              "Invalid value: \"" + text + "\": must be greater than or equal to 0").asFailure();
        }
      }
      Set<String> names = new LinkedHashSet<>();
      oldQ.fieldNames().forEachRemaining(names::add);
      newQ.fieldNames().forEachRemaining(names::add);
      for (String resource : names) {
        boolean had = oldQ.has(resource);
        boolean has = newQ.has(resource);
        if (had && !has) {
          throw ApiError.invalid("Pod", pod, field + "." + kind + "[" + resource + "]",
              "Forbidden: resource " + kind + " cannot be removed").asFailure();
        }
        boolean changed = !had || Quantities.amount(oldQ.path(resource).asText())
            .compareTo(Quantities.amount(newQ.path(resource).asText())) != 0;
        if (changed && !RESIZABLE.contains(resource)) {
          throw ApiError.invalid("Pod", pod, field + "." + kind + "[" + resource + "]",
              "Forbidden: only cpu and memory resources are resizable").asFailure();
        }
      }
    }
    for (String resource : RESIZABLE) {
      JsonNode request = after.path("requests").path(resource);
      JsonNode limit = after.path("limits").path(resource);
      if (!request.isMissingNode() && !limit.isMissingNode()) {
        BigDecimal r = Quantities.amount(request.asText());
        BigDecimal l = Quantities.amount(limit.asText());
        if (r.compareTo(l) > 0) {
          throw ApiError.invalid("Pod", pod, field + ".requests",
              "Invalid value: \"" + request.asText() + "\": must be less than or equal to "
                  + resource + " limit of " + limit.asText()).asFailure();
        }
      }
    }
  }

  /**
   * Validates a PATCH on the pod itself as Headroom uses it (metadata only) and returns what is
   * stored: spec changes are refused with the real server's message for most spec fields; status
   * changes are dropped, as the real server drops them on the main resource.
   */
  static ObjectNode validateMetadataPatch(ObjectNode current, ObjectNode merged) {
    String name = current.path("metadata").path("name").asText();
    if (!current.path("spec").equals(merged.path("spec"))) {
      throw ApiError.invalid("Pod", name, "spec", "Forbidden: pod updates may not change fields "
          + "other than metadata (kube-double accepts only metadata changes on pods; a real API "
          + "server also allows image, activeDeadlineSeconds, tolerations additions and "
          + "terminationGracePeriodSeconds)").asFailure();
    }
    JsonNode oldMeta = current.path("metadata");
    JsonNode newMeta = merged.path("metadata");
    for (String immutable : new String[] {"name", "namespace", "uid", "creationTimestamp", "generateName"}) {
      if (!oldMeta.path(immutable).equals(newMeta.path(immutable))) {
        throw ApiError.invalid("Pod", name, "metadata." + immutable,
            "Invalid value: field is immutable").asFailure();
      }
    }
    ObjectNode stored = merged.deepCopy();
    stored.set("status", current.path("status").deepCopy());
    if (oldMeta.has("generation")) {
      ((ObjectNode) stored.path("metadata")).set("generation", oldMeta.path("generation"));
    }
    return stored;
  }

  private static ObjectNode withoutResources(ObjectNode pod) {
    ObjectNode copy = pod.deepCopy();
    for (String list : new String[] {"containers", "initContainers"}) {
      for (JsonNode container : copy.path("spec").path(list)) {
        ((ObjectNode) container).remove("resources");
      }
    }
    return copy;
  }

  private static JsonNode metadataWithoutBookkeeping(JsonNode pod) {
    ObjectNode meta = pod.path("metadata").deepCopy();
    BOOKKEEPING.forEach(meta::remove);
    return meta;
  }
}
