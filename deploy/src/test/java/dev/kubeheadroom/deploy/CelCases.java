package dev.kubeheadroom.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The values the CRD's x-kubernetes-validations rules must admit or refuse, each at the schema
 * path of its rule ({@code ""} for the root): {@link CelRulesTest} runs them through CEL-Java,
 * {@link CelRulesRealServerTest} through a real kube-apiserver, and both expect the same verdicts.
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

  private static void values(List<CelCases> out, String path, List<String> admitted, List<String> refused) {
    admitted.forEach(v -> out.add(new CelCases(path, v, true)));
    refused.forEach(v -> out.add(new CelCases(path, v, false)));
  }
}
