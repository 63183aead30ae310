package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HeadroomConfig CRD (deploy/crds) against docs/design/config.md, and its chart and sample. */
class HeadroomConfigCrdTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static CustomResourceDefinition crd() throws IOException {
    return Serialization.unmarshal(Files.readString(Charts.CRD_FILE), CustomResourceDefinition.class);
  }

  private static CustomResourceDefinitionVersion version() throws IOException {
    List<CustomResourceDefinitionVersion> versions = crd().getSpec().getVersions();
    assertThat(versions).extracting(CustomResourceDefinitionVersion::getName).containsExactly("v1alpha1");
    return versions.get(0);
  }

  private static JSONSchemaProps root() throws IOException {
    return version().getSchema().getOpenAPIV3Schema();
  }

  private static JSONSchemaProps spec() throws IOException {
    return root().getProperties().get("spec");
  }

  /** The schema of a dotted path under spec, e.g. "deadband.grow". */
  private static JSONSchemaProps field(String path) throws IOException {
    JSONSchemaProps node = spec();
    for (String part : path.split("\\.")) {
      assertThat(node.getProperties()).as("spec schema has %s", path).containsKey(part);
      node = node.getProperties().get(part);
    }
    return node;
  }

  private static List<String> rules(JSONSchemaProps schema) {
    List<ValidationRule> rules = schema.getXKubernetesValidations();
    return rules == null ? List.of() : rules.stream().map(ValidationRule::getRule).toList();
  }

  @Test
  void crdIsTheClusterScopedHeadroomConfigOfGroupKubeHeadroomDev() throws IOException {
    CustomResourceDefinition crd = crd();

    assertThat(crd.getMetadata().getName()).isEqualTo("headroomconfigs.kube-headroom.dev");
    assertThat(crd.getSpec().getGroup()).isEqualTo("kube-headroom.dev");
    assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo("HeadroomConfig");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("headroomconfigs");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("hcfg");
    assertThat(version().getServed()).isTrue();
    assertThat(version().getStorage()).isTrue();
  }

  @Test
  void onlyAnObjectNamedClusterIsAccepted() throws IOException {
    assertThat(rules(root())).containsExactly("self.metadata.name == 'cluster'");
  }

  @Test
  void defaultsEqualConfigMd() throws IOException {
    // docs/design/config.md, "HeadroomConfig": every field and its default.
    Map<String, Object> expected = Map.ofEntries(
        Map.entry("policy", "Proportional"),
        Map.entry("dryRun", true),
        Map.entry("minBurstFloor", "1"),
        Map.entry("maxMultiplier", "10"),
        Map.entry("quantum", "10m"),
        Map.entry("deadband.grow", 10),
        Map.entry("deadband.shrink", 5),
        Map.entry("debouncePeriod", "2s"),
        Map.entry("maxDebounceDelay", "10s"),
        Map.entry("backoffPeriod", "60s"),
        Map.entry("rateLimits.perNodePatchesPerSecond", 10),
        Map.entry("rateLimits.clientQPS", 50),
        Map.entry("rateLimits.clientBurst", 100),
        Map.entry("webhook.enabled", true),
        Map.entry("webhook.initialMultiplier", "2"),
        Map.entry("excludedNamespaces", List.of("kube-system")));

    for (Map.Entry<String, Object> e : expected.entrySet()) {
      assertThat(field(e.getKey()).getDefault())
          .as("default of spec.%s", e.getKey())
          .isEqualTo(JSON.valueToTree(e.getValue()));
    }
    // Nested defaults only apply when their parent exists: spec and each object default to {}.
    for (String parent : List.of("deadband", "rateLimits", "webhook")) {
      assertThat(field(parent).getDefault()).as("default of spec.%s", parent).isEqualTo(JSON.createObjectNode());
    }
    assertThat(spec().getDefault()).isEqualTo(JSON.createObjectNode());
    // Strings stay strings: "1" and "10" must not be defaulted as numbers.
    assertThat(field("minBurstFloor").getDefault().isTextual()).isTrue();
    assertThat(field("maxMultiplier").getDefault().isTextual()).isTrue();
  }

  @Test
  void boundsAndEnumsMatchConfigMd() throws IOException {
    assertThat(field("policy").getEnum()).containsExactly(JSON.valueToTree("Proportional"));
    for (String deadband : List.of("deadband.grow", "deadband.shrink")) {
      assertThat(field(deadband).getType()).isEqualTo("integer");
      assertThat(field(deadband).getMinimum()).isEqualTo(0.0);
      assertThat(field(deadband).getMaximum()).isEqualTo(100.0);
    }
    for (String limit : List.of("perNodePatchesPerSecond", "clientQPS", "clientBurst")) {
      assertThat(field("rateLimits." + limit).getType()).isEqualTo("integer");
      assertThat(field("rateLimits." + limit).getMinimum()).isEqualTo(1.0);
    }
    assertThat(rules(field("maxMultiplier")))
        .containsExactly("double(self) >= 0.0 && double(self) <= 100.0");
    assertThat(field("dryRun").getType()).isEqualTo("boolean");
    assertThat(field("webhook.enabled").getType()).isEqualTo("boolean");
  }

  @Test
  void quantityDecimalAndDurationPatternsAcceptGoodAndRejectBadValues() throws IOException {
    for (String quantity : List.of("minBurstFloor", "quantum")) {
      Pattern p = Pattern.compile(field(quantity).getPattern());
      assertThat(List.of("1", "10m", "1500m", "0.5", "2.25"))
          .as(quantity).allMatch(v -> p.matcher(v).find());
      assertThat(List.of("", "-1", "1Gi", "m", "1.5m", "abc", "1 ", "0.0001"))
          .as(quantity).noneMatch(v -> p.matcher(v).find());
    }
    for (String decimal : List.of("maxMultiplier", "webhook.initialMultiplier")) {
      Pattern p = Pattern.compile(field(decimal).getPattern());
      assertThat(List.of("0", "2", "10", "1.5", "100")).as(decimal).allMatch(v -> p.matcher(v).find());
      assertThat(List.of("", "-1", "1e3", "ten", "1.", ".5")).as(decimal).noneMatch(v -> p.matcher(v).find());
    }
    for (String duration : List.of("debouncePeriod", "maxDebounceDelay", "backoffPeriod")) {
      Pattern p = Pattern.compile(field(duration).getPattern());
      assertThat(List.of("2s", "500ms", "10s", "1m30s", "1.5h")).as(duration).allMatch(v -> p.matcher(v).find());
      assertThat(List.of("", "2", "-1s", "2 s", "s", "2d")).as(duration).noneMatch(v -> p.matcher(v).find());
    }
  }

  @Test
  void namespaceSelectorIsALabelSelector() throws IOException {
    JSONSchemaProps selector = field("namespaceSelector");
    assertThat(selector.getProperties()).containsOnlyKeys("matchLabels", "matchExpressions");
    assertThat(selector.getProperties().get("matchLabels").getAdditionalProperties().getSchema().getType())
        .isEqualTo("string");
    JSONSchemaProps expression = selector.getProperties().get("matchExpressions").getItems().getSchema();
    assertThat(expression.getRequired()).containsExactlyInAnyOrder("key", "operator");
    assertThat(expression.getProperties().get("operator").getEnum())
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("In", "NotIn", "Exists", "DoesNotExist");
  }

  @Test
  void statusSubresourceReportsGenerationConditionsAndCounts() throws IOException {
    assertThat(version().getSubresources().getStatus()).isNotNull();
    JSONSchemaProps status = root().getProperties().get("status");
    assertThat(status.getProperties())
        .containsOnlyKeys("observedGeneration", "conditions", "managedPods", "managedNodes");
    JSONSchemaProps conditions = status.getProperties().get("conditions");
    assertThat(conditions.getXKubernetesListType()).isEqualTo("map");
    assertThat(conditions.getXKubernetesListMapKeys()).containsExactly("type");
    assertThat(conditions.getItems().getSchema().getProperties())
        .containsKeys("type", "status", "reason", "message", "lastTransitionTime", "observedGeneration");
  }

  @Test
  void printerColumnsAreDryRunReadyAge() throws IOException {
    assertThat(version().getAdditionalPrinterColumns())
        .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("DryRun", ".spec.dryRun"),
            org.assertj.core.groups.Tuple.tuple("Ready", ".status.conditions[?(@.type==\"Ready\")].status"),
            org.assertj.core.groups.Tuple.tuple("Age", ".metadata.creationTimestamp"));
  }

  @Test
  void sampleIsTheDryRunSingletonAndUsesOnlySchemaFields() throws IOException {
    GenericKubernetesResource sample =
        Serialization.unmarshal(Files.readString(Charts.SAMPLE), GenericKubernetesResource.class);

    assertThat(sample.getApiVersion()).isEqualTo("kube-headroom.dev/v1alpha1");
    assertThat(sample.getKind()).isEqualTo("HeadroomConfig");
    assertThat(sample.getMetadata().getName()).isEqualTo("cluster");
    JsonNode spec = JSON.valueToTree(sample.getAdditionalProperties().get("spec"));
    assertThat(spec.get("dryRun").asBoolean(false)).isTrue();
    assertKnownFields(spec, spec(), "spec");
  }

  /** Every field of an object appears in its schema (a typo would be pruned silently). */
  private static void assertKnownFields(JsonNode value, JSONSchemaProps schema, String path) {
    if (!value.isObject() || schema.getProperties() == null || schema.getProperties().isEmpty()) {
      return;
    }
    value.fieldNames().forEachRemaining(name -> {
      assertThat(schema.getProperties()).as("schema of %s", path).containsKey(name);
      assertKnownFields(value.get(name), schema.getProperties().get(name), path + "." + name);
    });
  }

  @Test
  void crdChartRendersThisCrdAndKeepsItOnUninstall() throws IOException {
    assertThat(new com.marcnuri.helm.Helm(Charts.CRDS).lint().strict().call().isFailed()).isFalse();

    List<HasMetadata> rendered = Charts.render(Charts.CRDS).objects();

    assertThat(rendered).hasSize(1);
    CustomResourceDefinition chartCrd = (CustomResourceDefinition) rendered.get(0);
    assertThat(chartCrd.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
    assertThat(chartCrd.getSpec()).isEqualTo(crd().getSpec());
  }
}
