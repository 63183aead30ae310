package dev.kubeheadroom.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * One RFC 6902 JSON Patch operation. Only {@code add} is produced: on an object member it creates
 * the member or replaces it, so it is correct whether or not the member existed.
 *
 * @param op the operation ({@code add})
 * @param path an RFC 6901 JSON pointer, built with {@link #pointer} so keys are escaped
 * @param value the value to add
 */
public record PatchOp(String op, String path, JsonNode value) {
  public PatchOp {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(value, "value");
  }

  public static PatchOp add(String path, JsonNode value) {
    return new PatchOp("add", path, value);
  }

  /**
   * An RFC 6901 pointer from unescaped segments: {@code ~} becomes {@code ~0} and {@code /}
   * becomes {@code ~1}, so {@code ("metadata", "annotations", "kube-headroom.dev/max-cpu")} is
   * {@code /metadata/annotations/kube-headroom.dev~1max-cpu}.
   */
  public static String pointer(Object... segments) {
    StringBuilder sb = new StringBuilder();
    for (Object segment : segments) {
      sb.append('/').append(String.valueOf(segment).replace("~", "~0").replace("/", "~1"));
    }
    return sb.toString();
  }

  /** The patch document: a JSON array of operations. */
  public static ArrayNode toJson(List<PatchOp> ops) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (PatchOp o : ops) {
      ObjectNode node = array.addObject();
      node.put("op", o.op());
      node.put("path", o.path());
      node.set("value", o.value());
    }
    return array;
  }
}
