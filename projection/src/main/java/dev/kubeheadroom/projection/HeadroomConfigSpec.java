package dev.kubeheadroom.projection;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.kubeheadroom.projection.SpecValues.Cpu;
import dev.kubeheadroom.projection.SpecValues.Decimal;
import dev.kubeheadroom.projection.SpecValues.Flag;
import dev.kubeheadroom.projection.SpecValues.GoTime;
import dev.kubeheadroom.projection.SpecValues.Names;
import dev.kubeheadroom.projection.SpecValues.Percent;
import dev.kubeheadroom.projection.SpecValues.Positive;
import dev.kubeheadroom.projection.SpecValues.Text;
import dev.kubeheadroom.projection.SpecValues.Whole;
import java.util.List;
import java.util.Map;

/**
 * A HeadroomConfig's {@code spec} as written (docs/design/config.md), bound by Jackson
 * ({@link SpecBinding}): every field optional (null: not written, the default applies), each leaf
 * already in its form ({@link SpecValues}). {@link ConfigProjection} validates it as a whole and
 * makes the {@code ClusterConfig}. Unknown fields are ignored here (the CRD's structural schema
 * prunes them; the command line warns of them).
 */
record HeadroomConfigSpec(
    Text policy,
    Flag dryRun,
    Cpu minBurstFloor,
    Decimal maxMultiplier,
    Cpu quantum,
    Deadband deadband,
    GoTime debouncePeriod,
    GoTime maxDebounceDelay,
    GoTime backoffPeriod,
    RateLimits rateLimits,
    Webhook webhook,
    Selector namespaceSelector,
    Names excludedNamespaces,
    List<Pool> pools,
    Text tenancy,
    Gangs gangs) {

  static final HeadroomConfigSpec EMPTY = new HeadroomConfigSpec(null, null, null, null, null, null, null,
      null, null, null, null, null, null, null, null, null);

  record Deadband(Percent grow, Percent shrink) {}

  record RateLimits(Positive perNodePatchesPerSecond, @JsonProperty("clientQPS") Positive clientQps,
      Whole clientBurst) {}

  record Webhook(Flag enabled, Decimal initialMultiplier) {}

  record Selector(Map<String, Text> matchLabels, List<Requirement> matchExpressions) {}

  record Requirement(Text key, Text operator, Names values) {}

  record Pool(Text name, Selector nodeSelector, Cpu minBurstFloor, Decimal maxMultiplier,
      Deadband deadband, GoTime debouncePeriod, GoTime maxDebounceDelay) {}

  record Gangs(Names ownerKinds) {}
}
