package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Which field manager owns which leaf fields of each object: the part of server-side apply that
 * changes outcomes. An apply by manager M (1) conflicts (409) without {@code force} with leaves
 * another manager owns at a different value, (2) takes those leaves with {@code force}, and
 * (3) removes leaves M applied before and omits now, unless another manager also owns them. Other
 * patches move the leaves they set to their manager.
 *
 * <p>Owners are a manager and its operation, as {@code metadata.managedFields} entries are
 * (k8s.io/apiserver pkg/endpoints/handlers/fieldmanager: an entry per manager, operation and API
 * version): what a manager sets by an ordinary patch is its Update entry's, so its later applies
 * neither conflict with nor remove those fields.
 *
 * <p>Kept in memory per object uid; it is not written to {@code metadata.managedFields}, and the
 * manager that created an object owns nothing here (a real server records it as an owner too).
 */
final class FieldOwnership {
  private static final Set<String> IDENTITY =
      Set.of("apiVersion", "kind", "metadata.name", "metadata.namespace", "metadata.uid",
          "metadata.resourceVersion");

  private final Map<String, Map<Owner, Set<List<String>>>> owners = new ConcurrentHashMap<>();

  /** A managedFields entry's identity: the manager, and whether it applied or updated. */
  private record Owner(String manager, boolean applied) {}

  /**
   * Applies ownership rules to {@code merged} (the patched object) and returns the step that
   * records the new owners, to run once the write is accepted.
   */
  Runnable apply(String uid, String manager, boolean force, JsonNode applied, JsonNode current, ObjectNode merged) {
    Owner me = new Owner(manager, true);
    Map<Owner, Set<List<String>>> byManager = copy(owners.getOrDefault(uid, Map.of()));
    Set<List<String>> leaves = leaves(applied);
    if (!force) {
      List<String> conflicts = new ArrayList<>();
      byManager.forEach((other, owned) -> {
        if (!other.equals(me)) {
          owned.stream().filter(leaves::contains)
              .filter(leaf -> !at(current, leaf).equals(at(applied, leaf)))
              .forEach(leaf -> conflicts.add("conflict with \"" + other.manager() + "\": " + render(leaf)));
        }
      });
      if (!conflicts.isEmpty()) {
        throw new ApiError(409, "Conflict", "Apply failed with " + conflicts.size() + " conflict"
            + (conflicts.size() == 1 ? "" : "s") + ": " + String.join(", ", conflicts),
            "", merged.path("metadata").path("name").asText(), "").asFailure();
      }
    }
    byManager.forEach((other, owned) -> {
      if (!other.equals(me)) {
        owned.removeAll(leaves);
      }
    });
    Set<List<String>> dropped = new LinkedHashSet<>(byManager.getOrDefault(me, Set.of()));
    dropped.removeAll(leaves);
    byManager.forEach((other, owned) -> {
      if (!other.equals(me)) {
        dropped.removeAll(owned);
      }
    });
    dropped.forEach(leaf -> remove(merged, leaf));
    byManager.put(me, leaves);
    return () -> owners.put(uid, byManager);
  }

  /** The step recording that a non-apply patch by {@code manager} set the leaves in {@code patch}. */
  Runnable update(String uid, String manager, JsonNode patch) {
    Map<Owner, Set<List<String>>> byManager = copy(owners.getOrDefault(uid, Map.of()));
    Set<List<String>> leaves = leaves(patch);
    byManager.forEach((other, owned) -> owned.removeAll(leaves));
    byManager.computeIfAbsent(new Owner(manager, false), k -> new LinkedHashSet<>()).addAll(leaves);
    return () -> owners.put(uid, byManager);
  }

  private static Map<Owner, Set<List<String>>> copy(Map<Owner, Set<List<String>>> byManager) {
    Map<Owner, Set<List<String>>> out = new HashMap<>();
    byManager.forEach((manager, owned) -> out.put(manager, new LinkedHashSet<>(owned)));
    return out;
  }

  void forget(String uid) {
    owners.remove(uid);
  }

  /** The leaf paths set by an applied configuration; list items merged by name are keyed. */
  static Set<List<String>> leaves(JsonNode config) {
    Set<List<String>> out = new LinkedHashSet<>();
    collect(config, new ArrayList<>(), out);
    out.removeIf(leaf -> IDENTITY.contains(String.join(".", leaf)));
    return out;
  }

  private static void collect(JsonNode node, List<String> path, Set<List<String>> out) {
    if (node.isObject() && node.size() > 0) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        path.add(field.getKey());
        collect(field.getValue(), path, out);
        path.remove(path.size() - 1);
      }
    } else if (node.isArray() && keyedByName(node)) {
      for (JsonNode item : node) {
        path.add("[name=" + item.path("name").asText() + "]");
        collect(item, path, out);
        path.remove(path.size() - 1);
      }
    } else if (!(path.size() > 0 && path.get(path.size() - 1).equals("name")
        && path.size() > 1 && path.get(path.size() - 2).startsWith("[name="))) {
      out.add(List.copyOf(path));
    }
  }

  private static boolean keyedByName(JsonNode array) {
    if (array.isEmpty()) {
      return false;
    }
    for (JsonNode item : array) {
      if (!item.path("name").isTextual()) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode at(JsonNode root, List<String> leaf) {
    JsonNode node = root;
    for (String segment : leaf) {
      node = segment.startsWith("[name=") ? item(node, segment) : node.path(segment);
    }
    return node;
  }

  private static JsonNode item(JsonNode array, String segment) {
    String name = segment.substring("[name=".length(), segment.length() - 1);
    for (JsonNode item : array) {
      if (name.equals(item.path("name").asText())) {
        return item;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static void remove(ObjectNode root, List<String> leaf) {
    JsonNode parent = at(root, leaf.subList(0, leaf.size() - 1));
    if (parent instanceof ObjectNode object) {
      object.remove(leaf.get(leaf.size() - 1));
    }
  }

  static String render(List<String> leaf) {
    return leaf.stream()
        .map(s -> s.startsWith("[name=") ? "[name=\"" + s.substring(6, s.length() - 1) + "\"]" : "." + s)
        .collect(Collectors.joining());
  }

  /**
   * What a PATCH of {@code type} by the request's field manager records once the write is
   * accepted: apply needs a {@code fieldManager} (422 otherwise) and may take fields over with
   * {@code force}; other patches record their leaves for the manager (or the user agent's
   * product); a JSON patch records nothing.
   */
  Runnable forPatch(ApiRequest api, Patches type, ObjectNode current, JsonNode patch, ObjectNode merged) {
    String uid = current.path("metadata").path("uid").asText("");
    String manager = api.query().getOrDefault("fieldManager", "");
    if (type == Patches.APPLY) {
      if (manager.isEmpty()) {
        throw ApiError.invalid("Pod", current.path("metadata").path("name").asText(), "fieldManager",
            "Required value: is required for apply patch").asFailure();
      }
      return apply(uid, manager, "true".equals(api.query().get("force")), patch, current, merged);
    }
    if (type == Patches.JSON_PATCH) {
      return () -> { };
    }
    if (manager.isEmpty()) {
      manager = api.userAgent().isEmpty() ? "unknown" : api.userAgent().split("/")[0];
    }
    return update(uid, manager, patch);
  }
}
