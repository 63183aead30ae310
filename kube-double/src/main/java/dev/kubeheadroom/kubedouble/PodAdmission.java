package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The built-in admission plugins the double runs on pod writes that are not seeding, in the API
 * server's order: the mutating phase (LimitRanger defaults), then — after mutating webhooks, which
 * a caller runs between the two calls on create — the validating phase (LimitRanger, then
 * ResourceQuota, the last plugin). A violation is a 403 {@code Forbidden}
 * ({@code admission.NewForbidden}: {@code pods "x" is forbidden: …}).
 *
 * <p>Pure: the namespace's stored objects are passed in; what the store must write afterwards
 * (the quotas' new {@code status}) is returned.
 */
final class PodAdmission {
  private PodAdmission() {}

  /**
   * What admission reads from a pod's namespace.
   *
   * @param limitRanges its LimitRanges, by name
   * @param quotas its ResourceQuotas, by name
   * @param pods its stored pods
   */
  record NamespaceObjects(List<ObjectNode> limitRanges, List<ObjectNode> quotas, List<ObjectNode> pods) {
    NamespaceObjects {
      limitRanges = List.copyOf(limitRanges);
      quotas = List.copyOf(quotas);
      pods = List.copyOf(pods);
    }

    /** Reads them with {@code stored} (collection path → objects); pods only if a quota needs them. */
    static NamespaceObjects read(String namespace, Function<String, List<ObjectNode>> stored) {
      String base = "/api/v1/namespaces/" + namespace + "/";
      List<ObjectNode> quotas = stored.apply(base + "resourcequotas");
      return new NamespaceObjects(stored.apply(base + "limitranges"), quotas,
          quotas.isEmpty() ? List.of() : stored.apply(base + "pods"));
    }
  }

  /** Mutating phase of a pod CREATE, in place: LimitRange defaults. */
  static void mutateCreate(ObjectNode pod, NamespaceObjects namespace) {
    LimitRanger.applyDefaults(pod, namespace.limitRanges(), true);
  }

  /**
   * Validating phase of a pod CREATE: LimitRanger, then ResourceQuota. First the pod's
   * {@code status.qosClass} is computed again from the spec as mutation left it (the strategy's
   * {@code PrepareForCreate} runs after mutating admission, webhooks included).
   *
   * @return the quotas to store with their new {@code status} once the pod is stored
   * @throws ApiError.Failure 403 on a violation
   */
  static List<ObjectNode> validateCreate(ObjectNode pod, NamespaceObjects namespace) {
    if (pod.path("status") instanceof ObjectNode status) {
      status.put("qosClass", QosClass.of(pod.path("spec")).name());
    }
    String name = name(pod);
    LimitRanger.violation(pod, namespace.limitRanges())
        .ifPresent(why -> { throw QuotaEvaluator.forbidden(name, why); });
    return QuotaEvaluator.admit(name, null, pod, namespace.quotas(), namespace.pods());
  }

  /**
   * Mutating phase of a {@code pods/resize} UPDATE ({@code after} in place): LimitRange defaults
   * for containers that still lack them (a pod created before its LimitRange).
   */
  static void mutateResize(ObjectNode after, NamespaceObjects namespace) {
    LimitRanger.applyDefaults(after, namespace.limitRanges(), false);
  }

  /**
   * Validating phase of a {@code pods/resize} UPDATE. LimitRanger skips a pod being deleted
   * ({@code runLimitFunc}); then the pod's requests must fit its Node's allocatable
   * ({@link NodeFit}; {@code nodes}: a stored Node by name); ResourceQuota charges the difference
   * between the two.
   *
   * @return the quotas to store with their new {@code status} once the pod is stored
   * @throws ApiError.Failure 403 on a violation
   */
  static List<ObjectNode> validateResize(JsonNode before, ObjectNode after, NamespaceObjects namespace,
      Function<String, Optional<ObjectNode>> nodes) {
    Objects.requireNonNull(before, "before");
    String name = name(after);
    if (!before.path("metadata").has("deletionTimestamp")) {
      LimitRanger.violation(after, namespace.limitRanges())
          .ifPresent(why -> { throw QuotaEvaluator.forbidden(name, why); });
    }
    NodeFit.check(after, nodes);
    return QuotaEvaluator.admit(name, before, after, namespace.quotas(), namespace.pods());
  }

  private static String name(JsonNode pod) {
    String name = pod.path("metadata").path("name").asText("");
    return name.isEmpty() ? pod.path("metadata").path("generateName").asText("") : name;
  }
}
