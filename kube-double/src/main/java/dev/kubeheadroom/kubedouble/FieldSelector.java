package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code fieldSelector} ({@code spec.nodeName=n1,status.phase!=Failed}) evaluated on an
 * object's JSON. Requirements are ANDed; {@code =}, {@code ==} and {@code !=} are supported; a
 * missing field reads as the empty string, so {@code spec.nodeName=} selects unscheduled pods as
 * on a real server. Unlike a real server, any dotted path is accepted, not only the fields each
 * resource indexes.
 */
record FieldSelector(List<Requirement> requirements) {

  record Requirement(String path, boolean equal, String value) {}

  FieldSelector {
    requirements = List.copyOf(requirements);
  }

  static FieldSelector parse(String selector) {
    List<Requirement> out = new ArrayList<>();
    for (String term : selector.split(",")) {
      if (term.isBlank()) {
        continue;
      }
      int ne = term.indexOf("!=");
      if (ne >= 0) {
        out.add(new Requirement(term.substring(0, ne).trim(), false, term.substring(ne + 2).trim()));
        continue;
      }
      int eq = term.indexOf('=');
      if (eq < 0) {
        throw ApiError.badRequest("invalid field selector requirement: " + term).asFailure();
      }
      String value = term.substring(eq + 1).startsWith("=") ? term.substring(eq + 2) : term.substring(eq + 1);
      out.add(new Requirement(term.substring(0, eq).trim(), true, value.trim()));
    }
    return new FieldSelector(out);
  }

  boolean matches(JsonNode object) {
    for (Requirement requirement : requirements) {
      JsonNode node = object;
      for (String segment : requirement.path().split("\\.")) {
        node = node.path(segment);
      }
      String actual = node.isValueNode() ? node.asText() : "";
      if (actual.equals(requirement.value()) != requirement.equal()) {
        return false;
      }
    }
    return true;
  }
}
