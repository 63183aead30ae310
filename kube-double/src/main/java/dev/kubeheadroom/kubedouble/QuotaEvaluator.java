package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The ResourceQuota admission plugin for pods, for the compute resources Headroom touches:
 * {@code pods}, {@code cpu}/{@code requests.cpu}, {@code limits.cpu} and their memory twins.
 *
 * <ul>
 *   <li>Usage of a pod ({@code pkg/quota/v1/evaluator/core/pods.go} {@code PodUsageFunc}): nothing
 *       once it is Succeeded or Failed; otherwise {@code pods: 1} and its summed requests and
 *       limits, each container counting the largest of desired, allocated and actual
 *       ({@link PodResources} with status).
 *   <li>Which operations: CREATE, and UPDATE of the {@code resize} subresource
 *       ({@code podEvaluator.Handles}).
 *   <li>Constraints: a quota on a cpu/memory resource requires every container to set it
 *       ({@code podEvaluator.Constraints}): {@code failed quota: NAME: must specify limits.cpu for: app}.
 *   <li>Check ({@code plugin/pkg/admission/resourcequota/controller.go} {@code checkRequest}): the
 *       delta (new usage minus old; negative allowed for pods) masked to the quota's hard
 *       resources, added to {@code status.used}, must stay within {@code hard} for every resource
 *       the request touches: {@code exceeded quota: NAME, requested: …, used: …, limited: …}.
 * </ul>
 *
 * <p>The double plays the quota controller at once: {@code hard} is read from {@code spec.hard}
 * and {@code used} is recomputed from the stored pods at each check (a real controller syncs
 * {@code status} on a resync period). Scopes {@code BestEffort}, {@code NotBestEffort},
 * {@code Terminating} and {@code NotTerminating} (as {@code scopes} or {@code scopeSelector} with
 * {@code Exists}/{@code In}) are honoured; a quota with any other scope does not match pods here.
 */
final class QuotaEvaluator {
  private static final Set<String> TRACKED =
      Set.of("pods", "cpu", "requests.cpu", "limits.cpu", "memory", "requests.memory", "limits.memory");
  private static final Set<String> MUST_SPECIFY =
      Set.of("cpu", "requests.cpu", "limits.cpu", "memory", "requests.memory", "limits.memory");

  private QuotaEvaluator() {}

  /**
   * Checks a pod create ({@code before} null) or resize against every quota of its namespace and
   * returns each matching quota with its {@code status} as it stands once the write is stored.
   *
   * @param pods the namespace's stored pods ({@code before} among them on a resize)
   * @throws ApiError.Failure 403 when a constraint fails or a quota would be exceeded
   */
  static List<ObjectNode> admit(String podName, JsonNode before, JsonNode after, List<? extends JsonNode> quotas,
      List<? extends JsonNode> pods) {
    List<JsonNode> matching = new ArrayList<>();
    for (JsonNode quota : quotas) {
      Map<String, BigDecimal> hard = PodResources.amounts(quota.path("spec").path("hard"));
      if (hard.keySet().stream().noneMatch(TRACKED::contains) || !inScope(quota, after)) {
        continue;
      }
      String missing = missing(after, hard.keySet());
      if (!missing.isEmpty()) {
        throw forbidden(podName, "failed quota: " + name(quota) + ": must specify " + missing);
      }
      matching.add(quota);
    }
    Map<String, BigDecimal> delta = usage(after);
    if (before != null) {
      usage(before).forEach((resource, amount) -> delta.merge(resource, amount.negate(), BigDecimal::add));
    }
    delta.values().removeIf(amount -> amount.signum() == 0);
    List<ObjectNode> updated = new ArrayList<>();
    for (JsonNode quota : matching) {
      Map<String, BigDecimal> hard = PodResources.amounts(quota.path("spec").path("hard"));
      Map<String, BigDecimal> used = used(quota, hard.keySet(), pods);
      Map<String, BigDecimal> requested = new TreeMap<>(delta);
      requested.keySet().retainAll(hard.keySet());
      Map<String, BigDecimal> newUsed = new TreeMap<>(used);
      PodResources.add(newUsed, requested);
      Set<String> exceeded = requested.keySet().stream()
          .filter(resource -> newUsed.get(resource).compareTo(hard.get(resource)) > 0)
          .collect(Collectors.toCollection(TreeSet::new));
      if (!exceeded.isEmpty()) {
        throw forbidden(podName, "exceeded quota: " + name(quota) + ", requested: " + print(requested, exceeded)
            + ", used: " + print(used, exceeded) + ", limited: " + print(hard, exceeded));
      }
      updated.add(withStatus(quota, newUsed));
    }
    return updated;
  }

  /** What {@code pod} charges against quotas (empty once it is Succeeded or Failed). */
  static Map<String, BigDecimal> usage(JsonNode pod) {
    Map<String, BigDecimal> usage = new TreeMap<>();
    String phase = pod.path("status").path("phase").asText("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return usage;
    }
    usage.put("pods", BigDecimal.ONE);
    Map<String, BigDecimal> requests = PodResources.requests(pod, true);
    Map<String, BigDecimal> limits = PodResources.limits(pod, true);
    for (String resource : new String[] {"cpu", "memory"}) {
      if (requests.containsKey(resource)) {
        usage.put(resource, requests.get(resource));
        usage.put("requests." + resource, requests.get(resource));
      }
      if (limits.containsKey(resource)) {
        usage.put("limits." + resource, limits.get(resource));
      }
    }
    return usage;
  }

  /** {@code podEvaluator.Constraints}: "limits.cpu for: app; requests.memory for: a,b", or empty. */
  private static String missing(JsonNode pod, Set<String> hard) {
    Set<String> required = new TreeSet<>(hard);
    required.retainAll(MUST_SPECIFY);
    Map<String, Set<String>> missing = new TreeMap<>();
    for (String list : new String[] {"containers", "initContainers"}) {
      for (JsonNode container : pod.path("spec").path(list)) {
        Set<String> has = new TreeSet<>();
        JsonNode resources = container.path("resources");
        for (String resource : new String[] {"cpu", "memory"}) {
          if (resources.path("requests").has(resource)) {
            has.add(resource);
            has.add("requests." + resource);
          }
          if (resources.path("limits").has(resource)) {
            has.add("limits." + resource);
          }
        }
        for (String resource : required) {
          if (!has.contains(resource)) {
            missing.computeIfAbsent(resource, r -> new TreeSet<>()).add(container.path("name").asText());
          }
        }
      }
    }
    return missing.entrySet().stream()
        .map(e -> e.getKey() + " for: " + String.join(",", e.getValue()))
        .collect(Collectors.joining("; "));
  }

  private static Map<String, BigDecimal> used(JsonNode quota, Set<String> hard, List<? extends JsonNode> pods) {
    Map<String, BigDecimal> used = new TreeMap<>();
    hard.stream().filter(TRACKED::contains).forEach(resource -> used.put(resource, BigDecimal.ZERO));
    for (JsonNode pod : pods) {
      if (inScope(quota, pod)) {
        usage(pod).forEach((resource, amount) -> used.computeIfPresent(resource, (r, sum) -> sum.add(amount)));
      }
    }
    return used;
  }

  private static boolean inScope(JsonNode quota, JsonNode pod) {
    List<String> scopes = new ArrayList<>();
    quota.path("spec").path("scopes").forEach(scope -> scopes.add(scope.asText()));
    for (JsonNode expression : quota.path("spec").path("scopeSelector").path("matchExpressions")) {
      String operator = expression.path("operator").asText();
      if (!operator.equals("Exists") && !operator.equals("In")) {
        return false;
      }
      scopes.add(expression.path("scopeName").asText());
    }
    boolean bestEffort = QosClass.of(pod.path("spec")) == QosClass.BestEffort;
    boolean terminating = pod.path("spec").path("activeDeadlineSeconds").asLong(-1) >= 0
        && pod.path("spec").has("activeDeadlineSeconds");
    for (String scope : scopes) {
      boolean matches = switch (scope) {
        case "BestEffort" -> bestEffort;
        case "NotBestEffort" -> !bestEffort;
        case "Terminating" -> terminating;
        case "NotTerminating" -> !terminating;
        default -> false;
      };
      if (!matches) {
        return false;
      }
    }
    return true;
  }

  private static ObjectNode withStatus(JsonNode quota, Map<String, BigDecimal> used) {
    ObjectNode copy = quota.deepCopy();
    ObjectNode status = copy.putObject("status");
    status.set("hard", quota.path("spec").path("hard").deepCopy());
    ObjectNode usedNode = status.putObject("used");
    used.forEach((resource, amount) -> usedNode.put(resource, Quantities.format(resource, amount)));
    return copy;
  }

  /** {@code prettyPrint}: "limits.cpu=2,requests.cpu=1" over {@code names}, sorted. */
  private static String print(Map<String, BigDecimal> amounts, Set<String> names) {
    return names.stream().filter(amounts::containsKey)
        .map(resource -> resource + "=" + Quantities.format(resource, amounts.get(resource)))
        .collect(Collectors.joining(","));
  }

  private static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  static ApiError.Failure forbidden(String podName, String why) {
    return new ApiError(403, "Forbidden", "pods \"" + podName + "\" is forbidden: " + why, "pods", podName, "")
        .asFailure();
  }
}
