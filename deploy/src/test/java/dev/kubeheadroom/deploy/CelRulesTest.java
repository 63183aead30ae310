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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compiles and runs every x-kubernetes-validations rule of the CRD with CEL-Java (the API server
 * uses cel-go with the same standard library), on the values the API server must accept and reject
 * ({@link CelCases}; {@link CelRulesRealServerTest} holds a real kube-apiserver to the same verdicts).
 * A new rule without cases fails {@link #everyRuleInTheCrdIsExercised()}.
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

  /**
   * Evaluates every rule at a path with self = value; true iff all hold. A spec is first defaulted
   * as the API server does before its rules run ({@link CrdDefaults}): the rules may rely on that.
   */
  private static boolean admits(String path, Object given) throws Exception {
    Object value = path.equals("spec") ? CrdDefaults.apply(CrdDefaults.specSchema(), given) : given;
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
    assertThat(CelCases.all()).extracting(CelCases::path).containsAll(RULES.keySet());
    assertThat(RULES).containsOnlyKeys(
        "", "spec", "spec.maxMultiplier", "spec.quantum", "spec.webhook.initialMultiplier",
        "spec.pools[].nodeSelector", "spec.pools[].maxMultiplier");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kubeheadroom.deploy.CelCases#all")
  void eachCaseHasItsVerdict(CelCases c) throws Exception {
    assertThat(admits(c.path(), c.self())).isEqualTo(c.admitted());
  }
}
