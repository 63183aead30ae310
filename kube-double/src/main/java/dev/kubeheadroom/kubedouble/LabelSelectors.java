package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@code metav1.LabelSelector} evaluated against a label map, as apimachinery's
 * {@code LabelSelectorAsSelector} builds it: every {@code matchLabels} entry and every
 * {@code matchExpressions} requirement must hold (In, NotIn, Exists, DoesNotExist). An empty
 * selector selects everything; so does an absent one here, because the API server defaults a
 * webhook's {@code namespaceSelector} and {@code objectSelector} to {@code {}}.
 */
final class LabelSelectors {
  private LabelSelectors() {}

  /**
   * Whether {@code labels} satisfy {@code selector}.
   *
   * @throws IllegalArgumentException for a selector the API server would not have accepted (an
   *     unknown operator, In/NotIn without values, Exists/DoesNotExist with values)
   */
  static boolean matches(JsonNode selector, Map<String, String> labels) {
    if (selector == null || !selector.isObject()) {
      return true;
    }
    for (var it = selector.path("matchLabels").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().asText().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      if (!requirement(expression, labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean requirement(JsonNode expression, Map<String, String> labels) {
    String key = expression.path("key").asText("");
    String operator = expression.path("operator").asText("");
    Set<String> values = new HashSet<>();
    expression.path("values").forEach(v -> values.add(v.asText()));
    boolean has = labels.containsKey(key);
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          throw new IllegalArgumentException("values: Invalid value: []string(nil): for 'in', 'notin' "
              + "operators, values set can't be empty");
        }
        boolean in = has && values.contains(labels.get(key));
        return operator.equals("In") == in;
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          throw new IllegalArgumentException("values: Invalid value: " + values
              + ": values set must be empty for exists and does not exist");
        }
        return operator.equals("Exists") == has;
      }
      default -> throw new IllegalArgumentException("\"" + operator + "\" is not a valid label selector operator");
    }
  }
}
