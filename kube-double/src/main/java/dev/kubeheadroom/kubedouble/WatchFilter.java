package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What one watch or list selects: the path's resource, namespace and name and its label selector
 * (as the CRUD mock's attributes), and its field selector.
 */
record WatchFilter(AttributeSet query, FieldSelector fields) {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  boolean passes(AttributeSet attributes, String state) {
    return attributes != null && state != null && attributes.matches(query)
        && (fields.requirements().isEmpty() || fields.matches(read(state)));
  }

  /**
   * The event this watch gets for a change, or null for none. Copies
   * {@code staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go}
   * ({@code convertToWatchEvent}): the object now passes and did not → ADDED; passes before and
   * after → MODIFIED; passed and no longer does (or was deleted) → DELETED carrying the last state
   * it passed with, stamped with the change's revision.
   */
  String eventFor(StoredChange change) {
    boolean now = passes(change.newAttributes(), change.newState());
    boolean before = passes(change.oldAttributes(), change.oldState());
    if (now) {
      return event(before ? "MODIFIED" : "ADDED", change.newState());
    }
    if (!before) {
      return null;
    }
    ObjectNode last = read(change.oldState());
    ObjectNode meta = last.get("metadata") instanceof ObjectNode m ? m : last.putObject("metadata");
    meta.put("resourceVersion", String.valueOf(change.revision()));
    return event("DELETED", last.toString());
  }

  static String event(String type, String object) {
    return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
  }

  static ObjectNode read(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      return node instanceof ObjectNode object ? object : JSON.createObjectNode();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
