package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The four PATCH content types the API server accepts, applied to an object's JSON.
 *
 * <p>Strategic merge and server-side apply merge maps recursively and merge the lists whose
 * Kubernetes schema declares {@code name} as their merge key (containers, init and ephemeral
 * containers, and their env, ports...); every other list is replaced. That is the pod schema for
 * the fields Headroom touches; {@code $patch}/{@code $retainKeys} directives are refused.
 */
enum Patches {
  JSON_PATCH("application/json-patch+json"),
  MERGE("application/merge-patch+json"),
  STRATEGIC("application/strategic-merge-patch+json"),
  APPLY("application/apply-patch+yaml");

  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> LISTS_MERGED_BY_NAME =
      Set.of("containers", "initContainers", "ephemeralContainers", "env", "volumes");

  final String mediaType;

  Patches(String mediaType) {
    this.mediaType = mediaType;
  }

  static Patches of(String contentType) {
    String bare = contentType == null ? "" : contentType.split(";")[0].trim();
    for (Patches type : values()) {
      if (type.mediaType.equalsIgnoreCase(bare)) {
        return type;
      }
    }
    throw ApiError.unsupportedMediaType(bare).asFailure();
  }

  /** Parses a patch body: JSON for every type, YAML too for apply. */
  JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (Exception notJson) {
      if (this != APPLY) {
        throw ApiError.badRequest("error decoding patch: " + notJson.getMessage()).asFailure();
      }
      try {
        return YAML.readTree(body);
      } catch (Exception notYaml) {
        throw ApiError.badRequest("error decoding YAML: " + notYaml.getMessage()).asFailure();
      }
    }
  }

  /** The patched copy of {@code target}; {@code target} is not changed. */
  ObjectNode apply(ObjectNode target, JsonNode patch) {
    ObjectNode copy = target.deepCopy();
    return switch (this) {
      case JSON_PATCH -> {
        if (!(patch instanceof ArrayNode)) {
          throw ApiError.badRequest("json patch must be an array of operations").asFailure();
        }
        try {
          yield (ObjectNode) JsonPatch.apply(patch, copy);
        } catch (RuntimeException e) {
          throw ApiError.invalid("Pod", target.path("metadata").path("name").asText(), "patch",
              e.getMessage()).asFailure();
        }
      }
      case MERGE -> (ObjectNode) mergePatch(copy, requireObject(patch));
      case STRATEGIC, APPLY -> (ObjectNode) strategicMerge(copy, requireObject(patch), "");
    };
  }

  private static ObjectNode requireObject(JsonNode patch) {
    if (patch instanceof ObjectNode object) {
      return object;
    }
    throw ApiError.badRequest("patch body must be an object").asFailure();
  }

  /** RFC 7386: objects merge, null deletes, anything else (lists too) replaces. */
  static JsonNode mergePatch(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result = target instanceof ObjectNode object ? object : JSON.createObjectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), mergePatch(result.path(field.getKey()), field.getValue()));
      }
    }
    return result;
  }

  private static JsonNode strategicMerge(JsonNode target, JsonNode patch, String fieldName) {
    if (patch.isObject()) {
      ObjectNode result = target instanceof ObjectNode object ? object : JSON.createObjectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (field.getKey().startsWith("$")) {
          throw ApiError.badRequest("kube-double does not support the patch directive "
              + field.getKey()).asFailure();
        }
        if (field.getValue().isNull()) {
          result.remove(field.getKey());
        } else {
          result.set(field.getKey(),
              strategicMerge(result.path(field.getKey()), field.getValue(), field.getKey()));
        }
      }
      return result;
    }
    if (patch.isArray() && LISTS_MERGED_BY_NAME.contains(fieldName) && target.isArray()) {
      List<JsonNode> merged = new ArrayList<>();
      target.forEach(merged::add);
      for (JsonNode item : patch) {
        String name = item.path("name").asText(null);
        int at = -1;
        for (int i = 0; name != null && i < merged.size(); i++) {
          if (name.equals(merged.get(i).path("name").asText(null))) {
            at = i;
          }
        }
        if (at < 0) {
          merged.add(item.deepCopy());
        } else {
          merged.set(at, strategicMerge(merged.get(at), item, ""));
        }
      }
      ArrayNode result = JSON.createArrayNode();
      merged.forEach(result::add);
      return result;
    }
    return patch.deepCopy();
  }
}
