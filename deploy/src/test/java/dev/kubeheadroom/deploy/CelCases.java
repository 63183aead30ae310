package dev.kubeheadroom.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values the CRD's x-kubernetes-validations rules must admit or refuse, each at the schema
 * path of its rule ({@code ""} for the root): the one case table of the HeadroomConfig's rules.
 * {@link CelRulesTest} runs them through CEL-Java, {@link CelRulesRealServerTest} through a real
 * kube-apiserver, {@link JavaValidationAgreesTest} through the Java validation
 * ({@code ConfigProjection}), and all three expect the same verdicts: the rules cannot drift apart.
 *
 * @param path the rule's schema path
 * @param self the value the rule sees as {@code self}
 * @param admitted whether every rule at the path holds
 */
record CelCases(String path, Object self, boolean admitted) {

  @Override
  public String toString() {
    return (admitted ? "admits " : "refuses ") + (path.isEmpty() ? "<root>" : path) + " = " + self;
  }

  static List<CelCases> all() {
    List<CelCases> out = new ArrayList<>();
    out.add(new CelCases("", Map.of("metadata", Map.of("name", "cluster")), true));
    out.add(new CelCases("", Map.of("metadata", Map.of("name", "cluster-2")), false));
    out.add(new CelCases("", Map.of("metadata", Map.of("name", "default")), false));
    values(out, "spec.maxMultiplier", List.of("0", "1", "10", "2.5", "100", "100.0"), List.of("100.5", "101", "1000"));
    values(out, "spec.webhook.initialMultiplier", List.of("1", "2", "1.5", "100"), List.of("0", "0.5", "100.01"));
    values(out, "spec.quantum", List.of("10m", "1", "0.5", "1m"), List.of("0", "0m", "000m", "0.0", "0.000"));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s"), true));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "2s"), true));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "500ms", "maxDebounceDelay", "1m"), true));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "10s", "maxDebounceDelay", "2s"), false));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "1m", "maxDebounceDelay", "59s"), false));
    values(out, "spec.pools[].maxMultiplier", List.of("Unlimited", "0", "2", "2.5", "100"), List.of("100.5", "101"));
    out.add(new CelCases("spec.pools[].nodeSelector", Map.of("matchLabels", Map.of("pool", "batch")), true));
    out.add(new CelCases("spec.pools[].nodeSelector",
        Map.of("matchExpressions", List.of(Map.of("key", "tier", "operator", "Exists"))), true));
    out.add(new CelCases("spec.pools[].nodeSelector", Map.of(), false));
    out.add(new CelCases("spec.pools[].nodeSelector", Map.of("matchLabels", Map.of(), "matchExpressions", List.of()),
        false));
    // every pool's maxDebounceDelay, its own or inherited, is at least its debouncePeriod; the
    // cluster's knobs as defaulting leaves them, and pools that set one, both or neither
    Map<String, Object> selector = Map.of("matchLabels", Map.of("pool", "x"));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "a", "nodeSelector", selector, "debouncePeriod", "500ms"),
        Map.of("name", "b", "nodeSelector", selector, "debouncePeriod", "20s", "maxDebounceDelay", "1m"),
        Map.of("name", "c", "nodeSelector", selector))), true));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "slow", "nodeSelector", selector, "debouncePeriod", "30s"))), false));
    out.add(new CelCases("spec", Map.of("debouncePeriod", "2s", "maxDebounceDelay", "10s", "pools", List.of(
        Map.of("name", "tight", "nodeSelector", selector, "maxDebounceDelay", "1s"))), false));
    return out;
  }

  /** The sample HeadroomConfig with this case's value where its rule's {@code self} is. */
  @SuppressWarnings("unchecked")
  GenericKubernetesResource object() {
    GenericKubernetesResource config;
    try {
      config = Serialization.unmarshal(Files.readString(Charts.SAMPLE), GenericKubernetesResource.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) config.getAdditionalProperties().get("spec"));
    config.setAdditionalProperty("spec", spec);
    Map<String, Object> selector = Map.of("matchLabels", Map.of("pool", "x"));
    switch (path) {
      case "" -> config.getMetadata().setName(
          (String) ((Map<String, Object>) ((Map<String, Object>) self).get("metadata")).get("name"));
      case "spec" -> spec.putAll((Map<String, Object>) self);
      case "spec.maxMultiplier" -> spec.put("maxMultiplier", self);
      case "spec.quantum" -> spec.put("quantum", self);
      case "spec.webhook.initialMultiplier" -> {
        Map<String, Object> webhook = new LinkedHashMap<>((Map<String, Object>) spec.get("webhook"));
        webhook.put("initialMultiplier", self);
        spec.put("webhook", webhook);
      }
      case "spec.pools[].nodeSelector" -> spec.put("pools", List.of(Map.of("name", "p", "nodeSelector", self)));
      case "spec.pools[].maxMultiplier" -> spec.put("pools",
          List.of(Map.of("name", "p", "nodeSelector", selector, "maxMultiplier", self)));
      default -> throw new IllegalArgumentException("no object for a case at " + path);
    }
    return config;
  }

  private static void values(List<CelCases> out, String path, List<String> admitted, List<String> refused) {
    admitted.forEach(v -> out.add(new CelCases(path, v, true)));
    refused.forEach(v -> out.add(new CelCases(path, v, false)));
  }
}
