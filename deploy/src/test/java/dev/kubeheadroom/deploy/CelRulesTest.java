package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compiles and runs every x-kubernetes-validations rule of the CRD with CEL-Java (the API server
 * uses cel-go with the same standard library), on values the API server must accept and reject.
 * A new rule without cases here fails {@link #everyRuleInTheCrdIsExercised()}.
 */
class CelRulesTest {
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();
  /** Schema path ("" for the root) -> its rules. */
  private static final Map<String, List<String>> RULES = new LinkedHashMap<>();

  @BeforeAll
  static void collectRules() throws Exception {
    CustomResourceDefinition crd =
        Serialization.unmarshal(Files.readString(Charts.CRD_FILE), CustomResourceDefinition.class);
    collect("", crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema());
  }

  private static void collect(String path, JSONSchemaProps schema) {
    List<ValidationRule> rules = schema.getXKubernetesValidations();
    if (rules != null && !rules.isEmpty()) {
      RULES.put(path, rules.stream().map(ValidationRule::getRule).toList());
    }
    if (schema.getProperties() != null) {
      schema.getProperties().forEach((name, child) -> collect(path.isEmpty() ? name : path + "." + name, child));
    }
    if (schema.getItems() != null && schema.getItems().getSchema() != null) {
      collect(path + "[]", schema.getItems().getSchema());
    }
  }

  /** Evaluates every rule at a path with self = value; true iff all hold. */
  private static boolean admits(String path, Object value) throws Exception {
    List<String> rules = RULES.get(path);
    assertThat(rules).as("rules at %s", path).isNotEmpty();
    boolean all = true;
    for (String rule : rules) {
      CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addVar("self", value instanceof String ? SimpleType.STRING : SimpleType.DYN)
          .setResultType(SimpleType.BOOL)
          .build();
      CelAbstractSyntaxTree ast = compiler.compile(rule).getAst();
      all &= (Boolean) RUNTIME.createProgram(ast).eval(Map.of("self", value));
    }
    return all;
  }

  @Test
  void everyRuleInTheCrdIsExercised() {
    assertThat(RULES).containsOnlyKeys(
        "", "spec", "spec.maxMultiplier", "spec.quantum", "spec.webhook.initialMultiplier",
        "spec.pools[].nodeSelector", "spec.pools[].maxMultiplier");
  }

  @Test
  void singletonRuleAcceptsOnlyTheNameCluster() throws Exception {
    assertThat(admits("", Map.of("metadata", Map.of("name", "cluster")))).isTrue();
    assertThat(admits("", Map.of("metadata", Map.of("name", "cluster-2")))).isFalse();
    assertThat(admits("", Map.of("metadata", Map.of("name", "default")))).isFalse();
  }

  @Test
  void maxMultiplierIsBetweenZeroAndOneHundred() throws Exception {
    for (String ok : List.of("0", "1", "10", "2.5", "100", "100.0")) {
      assertThat(admits("spec.maxMultiplier", ok)).as(ok).isTrue();
    }
    for (String bad : List.of("100.5", "101", "1000")) {
      assertThat(admits("spec.maxMultiplier", bad)).as(bad).isFalse();
    }
  }

  @Test
  void initialMultiplierIsBetweenOneAndOneHundred() throws Exception {
    for (String ok : List.of("1", "2", "1.5", "100")) {
      assertThat(admits("spec.webhook.initialMultiplier", ok)).as(ok).isTrue();
    }
    for (String bad : List.of("0", "0.5", "100.01")) {
      assertThat(admits("spec.webhook.initialMultiplier", bad)).as(bad).isFalse();
    }
  }

  @Test
  void quantumMustBePositive() throws Exception {
    for (String ok : List.of("10m", "1", "0.5", "1m")) {
      assertThat(admits("spec.quantum", ok)).as(ok).isTrue();
    }
    for (String bad : List.of("0", "0m", "000m", "0.0", "0.000")) {
      assertThat(admits("spec.quantum", bad)).as(bad).isFalse();
    }
  }

  @Test
  void maxDebounceDelayIsAtLeastDebouncePeriod() throws Exception {
    assertThat(admits("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s"))).isTrue();
    assertThat(admits("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "2s"))).isTrue();
    assertThat(admits("spec", Map.of("debouncePeriod", "500ms", "maxDebounceDelay", "1m"))).isTrue();
    assertThat(admits("spec", Map.of("debouncePeriod", "10s", "maxDebounceDelay", "2s"))).isFalse();
    assertThat(admits("spec", Map.of("debouncePeriod", "1m", "maxDebounceDelay", "59s"))).isFalse();
  }

  @Test
  void aPoolsMaxMultiplierIsUnlimitedOrBetweenZeroAndOneHundred() throws Exception {
    for (String ok : List.of("Unlimited", "0", "2", "2.5", "100")) {
      assertThat(admits("spec.pools[].maxMultiplier", ok)).as(ok).isTrue();
    }
    for (String bad : List.of("100.5", "101")) {
      assertThat(admits("spec.pools[].maxMultiplier", bad)).as(bad).isFalse();
    }
  }

  @Test
  void aPoolsNodeSelectorMustNotBeEmpty() throws Exception {
    assertThat(admits("spec.pools[].nodeSelector", Map.of("matchLabels", Map.of("pool", "batch")))).isTrue();
    assertThat(admits("spec.pools[].nodeSelector", Map.of("matchExpressions",
        List.of(Map.of("key", "tier", "operator", "Exists"))))).isTrue();
    assertThat(admits("spec.pools[].nodeSelector", Map.of())).isFalse();
    assertThat(admits("spec.pools[].nodeSelector", Map.of("matchLabels", Map.of(), "matchExpressions", List.of())))
        .isFalse();
  }

  @Test
  void everyPoolsMaxDebounceDelayOwnOrInheritedIsAtLeastItsDebouncePeriod() throws Exception {
    Map<String, Object> selector = Map.of("matchLabels", Map.of("pool", "x"));
    // the cluster's knobs as defaulting leaves them, and pools that set one, both or neither
    assertThat(admits("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "a", "nodeSelector", selector, "debouncePeriod", "500ms"),
        Map.of("name", "b", "nodeSelector", selector, "debouncePeriod", "20s", "maxDebounceDelay", "1m"),
        Map.of("name", "c", "nodeSelector", selector))))).isTrue();
    assertThat(admits("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "slow", "nodeSelector", selector, "debouncePeriod", "30s"))))).isFalse();
    assertThat(admits("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "tight", "nodeSelector", selector, "maxDebounceDelay", "1s"))))).isFalse();
  }
}
