package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.ConfigException;
import dev.kubeheadroom.projection.ConfigProjection;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java validation of a HeadroomConfig ({@code ConfigProjection}: what the controller, simulate
 * and {@code --config} files go by) and the CRD's rules (what the API server admits) agree: the same
 * {@link CelCases}, the same verdicts. And the CRD's defaults are the Java defaults: an empty spec
 * as the API server stores it (every CRD default applied) reads as the empty spec does in Java.
 */
class JavaValidationAgreesTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kubeheadroom.deploy.CelCases#all")
  void theJavaValidationGivesTheSameVerdict(CelCases c) {
    String refusal = null;
    try {
      ConfigProjection.project(c.object());
    } catch (ConfigException e) {
      refusal = e.getMessage();
    }
    assertThat(refusal == null).as("admitted by ConfigProjection (refusal: %s)", refusal).isEqualTo(c.admitted());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theCrdsDefaultsAreTheJavaDefaults() {
    Map<String, Object> stored = (Map<String, Object>) CrdDefaults.apply(CrdDefaults.specSchema(), Map.of());

    // every knob with a default has it in the CRD (not only in Java)...
    assertThat(leaves("spec", stored)).containsExactly("spec.backoffPeriod", "spec.deadband.grow",
        "spec.deadband.shrink", "spec.debouncePeriod", "spec.dryRun", "spec.excludedNamespaces",
        "spec.maxDebounceDelay", "spec.maxMultiplier", "spec.minBurstFloor", "spec.policy", "spec.quantum",
        "spec.rateLimits.clientBurst", "spec.rateLimits.clientQPS", "spec.rateLimits.perNodePatchesPerSecond",
        "spec.webhook.enabled", "spec.webhook.initialMultiplier");
    // ...and it is the Java one
    assertThat(ConfigProjection.project(withSpec(stored))).isEqualTo(ConfigProjection.project(withSpec(Map.of())));
  }

  private static GenericKubernetesResource withSpec(Map<String, Object> spec) {
    GenericKubernetesResource object = new CelCases("spec", Map.of(), true).object();
    object.setAdditionalProperty("spec", spec);
    return object;
  }

  @SuppressWarnings("unchecked")
  private static TreeSet<String> leaves(String path, Map<String, Object> map) {
    TreeSet<String> out = new TreeSet<>();
    map.forEach((key, value) -> {
      if (value instanceof Map<?, ?> child) {
        out.addAll(leaves(path + "." + key, (Map<String, Object>) child));
      } else {
        out.add(path + "." + key);
      }
    });
    return out;
  }
}
