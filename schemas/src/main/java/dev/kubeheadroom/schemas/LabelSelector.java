package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;

/** A Kubernetes label selector (matchLabels AND matchExpressions). Empty matches nothing here. */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

  public static final LabelSelector NONE = new LabelSelector(Map.of(), List.of());

  public LabelSelector {
    matchLabels = Require.map(matchLabels);
    matchExpressions = Require.list(matchExpressions);
  }

  @JsonIgnore
  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }

  /** True when every term matches; an empty selector matches nothing (it means "not set"). */
  public boolean matches(Map<String, String> labels) {
    if (isEmpty()) {
      return false;
    }
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (Requirement r : matchExpressions) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** One matchExpressions term. */
  public record Requirement(String key, String operator, List<String> values) {
    public Requirement {
      Require.text(key, "matchExpressions.key");
      Require.text(operator, "matchExpressions.operator");
      if (!List.of("In", "NotIn", "Exists", "DoesNotExist").contains(operator)) {
        throw new IllegalArgumentException(
            "matchExpressions.operator must be In, NotIn, Exists or DoesNotExist, got " + operator);
      }
      values = Require.list(values);
    }

    boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      return switch (operator) {
        case "In" -> value != null && values.contains(value);
        case "NotIn" -> value == null || !values.contains(value);
        case "Exists" -> value != null;
        default -> value == null; // DoesNotExist
      };
    }
  }
}
