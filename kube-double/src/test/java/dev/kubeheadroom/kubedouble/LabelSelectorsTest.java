package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Label selectors as apimachinery evaluates them ({@code staging/src/k8s.io/apimachinery/pkg/apis/
 * meta/v1/helpers.go} {@code LabelSelectorAsSelector}, {@code .../pkg/labels/selector.go}
 * {@code Requirement.Matches}).
 */
class LabelSelectorsTest {
  private static final Map<String, String> LABELS = Map.of("mode", "managed", "tier", "web");

  private static JsonNode selector(String json) {
    try {
      return Serialization.jsonMapper().readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static boolean matches(String json) {
    return LabelSelectors.matches(selector(json), LABELS);
  }

  @Test
  void anEmptyOrAbsentSelectorSelectsEverything() {
    assertThat(matches("{}")).isTrue();
    assertThat(LabelSelectors.matches(selector("{}").path("missing"), LABELS)).isTrue();
  }

  @Test
  void matchLabelsNeedEveryPairEqual() {
    assertThat(matches("{\"matchLabels\":{\"mode\":\"managed\"}}")).isTrue();
    assertThat(matches("{\"matchLabels\":{\"mode\":\"managed\",\"tier\":\"db\"}}")).isFalse();
    assertThat(matches("{\"matchLabels\":{\"absent\":\"x\"}}")).isFalse();
  }

  @Test
  void inNeedsTheKeyWithOneOfTheValues() {
    assertThat(matches(expression("mode", "In", "[\"managed\",\"other\"]"))).isTrue();
    assertThat(matches(expression("mode", "In", "[\"other\"]"))).isFalse();
    assertThat(matches(expression("absent", "In", "[\"x\"]"))).isFalse();
  }

  @Test
  void notInHoldsForAMissingKeyOrAnotherValue() {
    assertThat(matches(expression("absent", "NotIn", "[\"unmanaged\"]"))).isTrue();
    assertThat(matches(expression("mode", "NotIn", "[\"unmanaged\"]"))).isTrue();
    assertThat(matches(expression("mode", "NotIn", "[\"managed\"]"))).isFalse();
  }

  @Test
  void existsAndDoesNotExistLookOnlyAtTheKey() {
    assertThat(matches(expression("tier", "Exists", "[]"))).isTrue();
    assertThat(matches(expression("absent", "Exists", "[]"))).isFalse();
    assertThat(matches(expression("absent", "DoesNotExist", "[]"))).isTrue();
    assertThat(matches(expression("tier", "DoesNotExist", "[]"))).isFalse();
  }

  @Test
  void everyRequirementMustHold() {
    assertThat(matches("{\"matchLabels\":{\"mode\":\"managed\"},\"matchExpressions\":["
        + "{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"db\"]}]}")).isFalse();
  }

  @Test
  void selectorsTheApiServerWouldRefuseAreErrors() {
    assertThatThrownBy(() -> matches(expression("mode", "Gt", "[\"1\"]")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a valid label selector operator");
    assertThatThrownBy(() -> matches(expression("mode", "In", "[]"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> matches(expression("mode", "Exists", "[\"x\"]")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String expression(String key, String operator, String values) {
    return "{\"matchExpressions\":[{\"key\":\"" + key + "\",\"operator\":\"" + operator + "\",\"values\":" + values + "}]}";
  }
}
