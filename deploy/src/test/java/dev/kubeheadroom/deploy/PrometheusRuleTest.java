package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.kubeheadroom.testkit.Promtool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's PrometheusRule, rendered with helm-java (so the rules tested are the shipped ones),
 * checked and unit-tested with promtool against src/test/resources/promtool.
 */
class PrometheusRuleTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path TESTS = Charts.DEPLOY.resolve("src/test/resources/promtool/headroom-rules-test.yaml");

  /** One rendering for the tests that read the default rules (helm-java takes seconds a render). */
  private static JsonNode defaultSpec;

  @TempDir Path dir;

  @BeforeAll
  static void render() {
    defaultSpec = renderedSpec(Map.of());
  }

  @Test
  void offByDefault() throws Exception {
    JsonNode values = YAML.readTree(Charts.OPERATOR.resolve("values.yaml").toFile());
    assertThat(values.path("prometheusRule").path("enabled").asBoolean(true)).isFalse();
  }

  @Test
  void everyRuleIsValidAndPassesItsPromtoolUnitTests() throws Exception {
    Promtool promtool = Promtool.require();
    JsonNode spec = defaultSpec;
    Files.writeString(dir.resolve("rules.yaml"), YAML.writeValueAsString(spec));
    Files.copy(TESTS, dir.resolve("tests.yaml"));

    Promtool.Result check = promtool.run(dir, null, "check", "rules", "rules.yaml");
    assertThat(check.ok()).as(check.output()).isTrue();
    Promtool.Result test = promtool.run(dir, null, "test", "rules", "tests.yaml");
    assertThat(test.ok()).as(test.output()).isTrue();
  }

  @Test
  void everyAlertHasAFiringAndAQuietUnitTest() throws Exception {
    Set<String> alerts = new TreeSet<>();
    defaultSpec.path("groups").forEach(g -> g.path("rules").forEach(r -> alerts.add(r.path("alert").asText())));
    Set<String> firing = new TreeSet<>();
    Set<String> quiet = new TreeSet<>();
    for (JsonNode test : YAML.readTree(TESTS.toFile()).path("tests")) {
      for (JsonNode t : test.path("alert_rule_test")) {
        (t.path("exp_alerts").isEmpty() ? quiet : firing).add(t.path("alertname").asText());
      }
    }
    assertThat(alerts).hasSizeGreaterThanOrEqualTo(10);
    assertThat(firing).as("alerts with a firing case").isEqualTo(alerts);
    assertThat(quiet).as("alerts with a quiet case").isEqualTo(alerts);
  }

  @Test
  void labelsAndThresholdsComeFromValues() throws Exception {
    GenericKubernetesResource rule = Charts.operatorSet(Map.of("prometheusRule.enabled", "true",
        "prometheusRule.labels.release", "kps", "prometheusRule.reconcileP99Seconds", "2"))
        .generic("PrometheusRule").get(0);
    JsonNode spec = YAML.valueToTree(rule.getAdditionalProperties().get("spec"));
    assertThat(rule.getMetadata().getLabels()).containsEntry("release", "kps");
    assertThat(rule.getMetadata().getNamespace()).isEqualTo(Charts.NAMESPACE);
    assertThat(spec.toString()).contains("[5m]))) > 2\"");
  }

  private static JsonNode renderedSpec(Map<String, String> extra) {
    Map<String, String> sets = new java.util.HashMap<>(extra);
    sets.put("prometheusRule.enabled", "true");
    GenericKubernetesResource rule = Charts.operatorSet(sets).generic("PrometheusRule").get(0);
    return YAML.valueToTree(rule.getAdditionalProperties().get("spec"));
  }
}
