package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The LimitRanger admission plugin for pods ({@code plugin/pkg/admission/limitranger/admission.go}),
 * run on pod CREATE and on the {@code resize} subresource ({@code SupportsAttributes} takes a pod
 * UPDATE only through {@code pods/resize}).
 *
 * <p>Mutation ({@code PodMutateLimitFunc}): each container without a limit or request for a resource
 * gets the LimitRange's {@code default} / {@code defaultRequest}. Validation
 * ({@code PodValidateLimitFunc}): {@code type: Container} min, max and maxLimitRequestRatio per
 * container (init containers too), {@code type: Pod} the same on the pod's summed requests and
 * limits. LimitRanges are read with the API server's defaulting of {@code LimitRangeItem}
 * ({@code SetDefaults_LimitRangeItem}: {@code default} from {@code max}, {@code defaultRequest}
 * from {@code default}, then from {@code min}), which the double applies when reading, not when
 * storing. Messages are the plugin's; several violations are joined as an aggregate
 * ({@code [a, b]}), in resource-name order (Go iterates maps at random).
 */
final class LimitRanger {
  private static final String ANNOTATION = "kubernetes.io/limit-ranger";
  private static final String[] LISTS = {"containers", "initContainers"};

  private LimitRanger() {}

  /** One {@code spec.limits[]} item after the API server's defaulting. */
  record Item(String type, Map<String, String> max, Map<String, String> min, Map<String, String> defaults,
      Map<String, String> defaultRequest, Map<String, String> ratio) {}

  static List<Item> items(JsonNode limitRange) {
    List<Item> items = new ArrayList<>();
    for (JsonNode item : limitRange.path("spec").path("limits")) {
      String type = item.path("type").asText("");
      Map<String, String> max = texts(item.path("max"));
      Map<String, String> min = texts(item.path("min"));
      Map<String, String> defaults = texts(item.path("default"));
      Map<String, String> defaultRequest = texts(item.path("defaultRequest"));
      if (type.equals("Container")) {
        max.forEach(defaults::putIfAbsent);
        defaults.forEach(defaultRequest::putIfAbsent);
        min.forEach(defaultRequest::putIfAbsent);
      }
      items.add(new Item(type, max, min, defaults, defaultRequest, texts(item.path("maxLimitRequestRatio"))));
    }
    return items;
  }

  /**
   * Sets each LimitRange's container defaults on the containers that lack them, in place; with
   * {@code annotate} (create) records what it set in {@code kubernetes.io/limit-ranger} (a resize
   * keeps the stored metadata, so the annotation would be dropped there anyway).
   */
  static void applyDefaults(ObjectNode pod, List<? extends JsonNode> limitRanges, boolean annotate) {
    for (JsonNode limitRange : limitRanges) {
      Map<String, String> limits = new TreeMap<>();
      Map<String, String> requests = new TreeMap<>();
      for (Item item : items(limitRange)) {
        if (item.type().equals("Container")) {
          limits.putAll(item.defaults());
          requests.putAll(item.defaultRequest());
        }
      }
      if (limits.isEmpty() && requests.isEmpty()) {
        continue;
      }
      List<String> notes = new ArrayList<>();
      for (String list : LISTS) {
        String prefix = list.equals("containers") ? "container" : "init container";
        for (JsonNode container : pod.path("spec").path(list)) {
          if (!(container instanceof ObjectNode c)) {
            continue;
          }
          boolean had = c.path("resources") instanceof ObjectNode;
          ObjectNode resources = had ? (ObjectNode) c.path("resources") : c.putObject("resources");
          List<String> setRequests = fill(resources, "requests", requests);
          List<String> setLimits = fill(resources, "limits", limits);
          if (!had && resources.isEmpty()) {
            c.remove("resources");
          }
          String name = c.path("name").asText();
          if (!setRequests.isEmpty()) {
            notes.add(String.join(", ", setRequests) + " request for " + prefix + " " + name);
          }
          if (!setLimits.isEmpty()) {
            notes.add(String.join(", ", setLimits) + " limit for " + prefix + " " + name);
          }
          PodDefaults.canonicalizeCpu(resources);
        }
      }
      if (annotate && !notes.isEmpty()) {
        ObjectNode meta = pod.path("metadata") instanceof ObjectNode m ? m : pod.putObject("metadata");
        ObjectNode annotations = meta.path("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
        annotations.put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", notes));
      }
    }
  }

  /** The first LimitRange's violations as the plugin words them, or empty if the pod passes. */
  static Optional<String> violation(JsonNode pod, List<? extends JsonNode> limitRanges) {
    for (JsonNode limitRange : limitRanges) {
      List<String> errors = new ArrayList<>();
      for (Item item : items(limitRange)) {
        if (item.type().equals("Container")) {
          for (String list : LISTS) {
            for (JsonNode container : pod.path("spec").path(list)) {
              check(item, PodResources.amounts(container.path("resources").path("requests")),
                  PodResources.amounts(container.path("resources").path("limits")), errors);
            }
          }
        } else if (item.type().equals("Pod")) {
          check(item, PodResources.requests(pod, false), PodResources.limits(pod, false), errors);
        }
      }
      List<String> distinct = errors.stream().distinct().toList();
      if (distinct.size() == 1) {
        return Optional.of(distinct.get(0));
      }
      if (!distinct.isEmpty()) {
        return Optional.of("[" + String.join(", ", distinct) + "]");
      }
    }
    return Optional.empty();
  }

  private static void check(Item item, Map<String, BigDecimal> requests, Map<String, BigDecimal> limits,
      List<String> errors) {
    String type = item.type();
    item.min().forEach((resource, enforced) -> bound(Bound.MIN, type, resource, enforced, requests, limits)
        .ifPresent(errors::add));
    item.max().forEach((resource, enforced) -> bound(Bound.MAX, type, resource, enforced, limits, requests)
        .ifPresent(errors::add));
    item.ratio().forEach((resource, enforced) -> ratio(type, resource, enforced, requests, limits).ifPresent(errors::add));
  }

  /**
   * A {@code min} or {@code max} bound: the side that must be given (min: the request, max: the
   * limit), checked first, then the other side; and which way an amount breaks it.
   */
  private record Bound(String word, String required, String other, int breaks) {
    static final Bound MIN = new Bound("minimum", "request", "limit", -1);
    static final Bound MAX = new Bound("maximum", "limit", "request", 1);
  }

  /** {@code requiredAmounts}, {@code otherAmounts}: the sides {@code kind} names, by resource. */
  private static Optional<String> bound(Bound kind, String type, String resource, String enforced,
      Map<String, BigDecimal> requiredAmounts, Map<String, BigDecimal> otherAmounts) {
    BigDecimal bound = Quantities.amount(enforced);
    String prefix = kind.word() + " " + resource + " usage per " + type + " is " + show(resource, enforced);
    BigDecimal required = requiredAmounts.get(resource);
    BigDecimal other = otherAmounts.get(resource);
    if (required == null) {
      return Optional.of(prefix + ".  No " + kind.required() + " is specified");
    }
    if (required.compareTo(bound) == kind.breaks()) {
      return Optional.of(prefix + ", but " + kind.required() + " is " + Quantities.format(resource, required));
    }
    if (other != null && other.compareTo(bound) == kind.breaks()) {
      return Optional.of(prefix + ", but " + kind.other() + " is " + Quantities.format(resource, other));
    }
    return Optional.empty();
  }

  private static Optional<String> ratio(String type, String resource, String enforced,
      Map<String, BigDecimal> requests, Map<String, BigDecimal> limits) {
    String prefix = resource + " max limit to request ratio per " + type + " is " + show(resource, enforced);
    BigDecimal request = requests.get(resource);
    BigDecimal limit = limits.get(resource);
    if (request == null || request.signum() == 0) {
      return Optional.of(prefix + ", but no request is specified or request is 0");
    }
    if (limit == null || limit.signum() == 0) {
      return Optional.of(prefix + ", but no limit is specified or limit is 0");
    }
    if (limit.compareTo(request.multiply(Quantities.amount(enforced))) > 0) {
      BigDecimal observed = limit.divide(request, MathContext.DECIMAL64);
      return Optional.of(prefix + ", but provided ratio is " + String.format(Locale.ROOT, "%f", observed));
    }
    return Optional.empty();
  }

  private static List<String> fill(ObjectNode resources, String kind, Map<String, String> defaults) {
    List<String> set = new ArrayList<>();
    if (defaults.isEmpty()) {
      return set;
    }
    JsonNode present = resources.path(kind);
    new TreeSet<>(defaults.keySet()).forEach(resource -> {
      if (!present.has(resource)) {
        set.add(resource);
      }
    });
    if (!set.isEmpty()) {
      ObjectNode quantities = present instanceof ObjectNode q ? q : resources.putObject(kind);
      set.forEach(resource -> quantities.put(resource, defaults.get(resource)));
    }
    return set;
  }

  private static String show(String resource, String quantity) {
    return resource.equals("cpu") ? Quantities.canonicalCpu(quantity) : quantity;
  }

  private static Map<String, String> texts(JsonNode quantities) {
    Map<String, String> out = new TreeMap<>();
    quantities.fields().forEachRemaining(q -> {
      if (q.getValue().isValueNode() && Quantities.isValid(q.getValue().asText())) {
        out.put(q.getKey(), q.getValue().asText());
      }
    });
    return out;
  }
}
