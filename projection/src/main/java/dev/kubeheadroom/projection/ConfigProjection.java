package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.ClusterConfig.Webhook;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.LabelSelector;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.math.BigDecimal;
import dev.kubeheadroom.projection.SpecValues.Cpu;
import dev.kubeheadroom.projection.SpecValues.Decimal;
import dev.kubeheadroom.projection.SpecValues.Flag;
import dev.kubeheadroom.projection.SpecValues.GoTime;
import dev.kubeheadroom.projection.SpecValues.Names;
import dev.kubeheadroom.projection.SpecValues.Percent;
import dev.kubeheadroom.projection.SpecValues.Positive;
import dev.kubeheadroom.projection.SpecValues.Text;
import dev.kubeheadroom.projection.SpecValues.Whole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The HeadroomConfig singleton (a {@link GenericKubernetesResource}) → {@link ClusterConfig}
 * (docs/design/config.md): the spec bound by Jackson into a {@link HeadroomConfigSpec}
 * ({@link SpecBinding}), then validated here, the one place: every field is optional and takes its
 * docs/design/config.md default ({@link ClusterConfig#DEFAULTS}); unknown fields are ignored (the
 * CRD's structural schema prunes them anyway). Anything invalid is refused with a
 * {@link ConfigException} naming the field: {@code spec.maxMultiplier: must be at most 100, got "150"}.
 * The CRD's CEL rules are held to the same verdicts (module deploy, {@code CelCases}).
 *
 * <p>Value forms: CPU quantities ({@code minBurstFloor: "1"}, {@code quantum: "10m"}) and decimal
 * strings ({@code maxMultiplier: "10"}) also accept a YAML number; durations use Go syntax
 * ({@link GoDuration}); percents are integers from 0 to 100.
 */
public final class ConfigProjection {
  public static final String API_VERSION = HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION;
  public static final String KIND = "HeadroomConfig";

  static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");
  private static final HeadroomConfigSpec.Deadband NO_DEADBAND = new HeadroomConfigSpec.Deadband(null, null);

  private ConfigProjection() {}

  /**
   * @throws ConfigException when the object is not the {@code cluster} HeadroomConfig or a spec
   *     field is invalid
   */
  public static ClusterConfig project(GenericKubernetesResource object) {
    if (object == null) {
      throw new ConfigException("object", "is missing");
    }
    if (!API_VERSION.equals(object.getApiVersion())) {
      throw new ConfigException("apiVersion", "must be " + API_VERSION + ", got " + quote(object.getApiVersion()));
    }
    if (!KIND.equals(object.getKind())) {
      throw new ConfigException("kind", "must be " + KIND + ", got " + quote(object.getKind()));
    }
    ObjectMeta meta = object.getMetadata();
    String name = meta == null ? null : meta.getName();
    if (!HeadroomKeys.CONFIG_NAME.equals(name)) {
      throw new ConfigException("metadata.name", "must be \"" + HeadroomKeys.CONFIG_NAME + "\", got " + quote(name));
    }
    // The API server always sets generation >= 1; an object without one (a hand-written log) is
    // still an object, not the built-in defaults (generation 0).
    Long generation = meta.getGeneration();
    long gen = generation == null || generation < 1 ? 1 : generation;
    return validate(gen, SpecBinding.bind(object.getAdditionalProperties().get("spec")));
  }

  private static ClusterConfig validate(long generation, HeadroomConfigSpec spec) {
    ClusterConfig d = ClusterConfig.DEFAULTS;
    String policy = or(spec.policy(), Text::value, d.policy());
    if (!ClusterConfig.POLICY_PROPORTIONAL.equals(policy)) {
      throw new ConfigException("spec.policy", "must be Proportional, got " + quote(policy));
    }
    double maxMultiplier = bounded("spec.maxMultiplier", spec.maxMultiplier(), false, BigDecimal.ZERO, HUNDRED,
        d.maxMultiplier());
    long quantum = or(spec.quantum(), Cpu::milli, d.quantumMilli());
    if (quantum == 0) { // the CRD's rule too: a zero step would round nothing
      throw new ConfigException("spec.quantum", "must be greater than 0, got " + quote(spec.quantum().text()));
    }
    HeadroomConfigSpec.Deadband deadband = or(spec.deadband(), db -> db, NO_DEADBAND);
    Duration debounce = or(spec.debouncePeriod(), GoTime::value, d.debouncePeriod());
    Duration maxDelay = or(spec.maxDebounceDelay(), GoTime::value, d.maxDebounceDelay());
    if (maxDelay.compareTo(debounce) < 0) {
      throw new ConfigException("spec.maxDebounceDelay",
          "must be at least debouncePeriod (" + GoDuration.format(debounce) + "), got "
              + quote(GoDuration.format(maxDelay)));
    }
    HeadroomConfigSpec.RateLimits rl = or(spec.rateLimits(), r -> r, new HeadroomConfigSpec.RateLimits(null, null, null));
    long burst = or(rl.clientBurst(), Whole::value, (long) d.rateLimits().clientBurst());
    if (burst < 1 || burst > Integer.MAX_VALUE) {
      throw new ConfigException("spec.rateLimits.clientBurst", "must be at least 1, got " + quote(burst));
    }
    RateLimits rateLimits = new RateLimits(
        or(rl.perNodePatchesPerSecond(), Positive::value, d.rateLimits().perNodePatchesPerSecond()),
        or(rl.clientQps(), Positive::value, d.rateLimits().clientQps()), (int) burst);
    HeadroomConfigSpec.Webhook wh = or(spec.webhook(), w -> w, new HeadroomConfigSpec.Webhook(null, null));
    Webhook webhook = new Webhook(or(wh.enabled(), Flag::value, d.webhook().enabled()),
        bounded("spec.webhook.initialMultiplier", wh.initialMultiplier(), false, BigDecimal.ONE, HUNDRED,
            d.webhook().initialMultiplier()));
    LabelSelector selector = spec.namespaceSelector() == null ? d.namespaceSelector()
        : selector(spec.namespaceSelector(), "spec.namespaceSelector");
    try {
      return new ClusterConfig(generation, policy, or(spec.dryRun(), Flag::value, d.dryRun()),
          or(spec.minBurstFloor(), Cpu::milli, d.minBurstFloorMilli()), maxMultiplier, quantum,
          or(deadband.grow(), Percent::value, d.deadbandGrowPercent()),
          or(deadband.shrink(), Percent::value, d.deadbandShrinkPercent()), debounce, maxDelay,
          or(spec.backoffPeriod(), GoTime::value, d.backoffPeriod()), rateLimits, webhook, selector,
          or(spec.excludedNamespaces(), Names::value, d.excludedNamespaces()),
          PoolsProjection.pools(spec.pools(), debounce, maxDelay), PoolsProjection.tenancy(spec.tenancy()),
          spec.gangs() == null ? d.gangOwnerKinds() : or(spec.gangs().ownerKinds(), Names::value, d.gangOwnerKinds()));
    } catch (IllegalArgumentException e) {
      // Every rule the record enforces is checked above with a field name; this is a backstop.
      throw new ConfigException("spec", oneLine(e.getMessage()));
    }
  }

  static LabelSelector selector(HeadroomConfigSpec.Selector raw, String path) {
    Map<String, String> matchLabels = new LinkedHashMap<>();
    if (raw.matchLabels() != null) {
      raw.matchLabels().forEach((key, value) -> {
        if (value == null) {
          throw new ConfigException(path + ".matchLabels." + key, "must be a string, got nothing");
        }
        matchLabels.put(key, value.value());
      });
    }
    List<LabelSelector.Requirement> expressions = new ArrayList<>();
    List<HeadroomConfigSpec.Requirement> terms = raw.matchExpressions() == null ? List.of() : raw.matchExpressions();
    for (int i = 0; i < terms.size(); i++) {
      String at = path + ".matchExpressions[" + i + "]";
      HeadroomConfigSpec.Requirement term = present(terms.get(i), at);
      String key = or(term.key(), Text::value, "");
      if (key.isEmpty()) {
        throw new ConfigException(at + ".key", "is required");
      }
      String operator = or(term.operator(), Text::value, null);
      if (operator == null || !OPERATORS.contains(operator)) {
        throw new ConfigException(at + ".operator",
            "must be one of In, NotIn, Exists, DoesNotExist, got " + quote(operator));
      }
      List<String> values = or(term.values(), Names::value, List.of());
      boolean set = operator.equals("In") || operator.equals("NotIn");
      if (set && values.isEmpty()) {
        throw new ConfigException(at + ".values", "must not be empty for operator " + operator);
      }
      if (!set && !values.isEmpty()) {
        throw new ConfigException(at + ".values", "must be empty for operator " + operator);
      }
      expressions.add(new LabelSelector.Requirement(key, operator, values));
    }
    return new LabelSelector(matchLabels, expressions);
  }

  /** A decimal field between {@code min} and {@code max}; {@code Unlimited} (0) only where allowed. */
  static double bounded(String field, Decimal value, boolean unlimited, BigDecimal min, BigDecimal max,
      double dflt) {
    if (value == null) {
      return dflt;
    }
    if (value.value() == null) {
      if (unlimited) {
        return 0;
      }
      throw new ConfigException(field, "must be a decimal number, got " + quote(value.text()));
    }
    if (value.value().compareTo(min) < 0) {
      throw new ConfigException(field, "must be at least " + min.toPlainString() + ", got " + quote(value.text()));
    }
    if (value.value().compareTo(max) > 0) {
      throw new ConfigException(field, "must be at most " + max.toPlainString() + ", got " + quote(value.text()));
    }
    return value.value().doubleValue();
  }

  /** A field's value, or its default when it is not written. */
  static <V, T> T or(V value, Function<V, T> read, T dflt) {
    return value == null ? dflt : read.apply(value);
  }

  /** An element of a list, which must not be null. */
  static <T> T present(T element, String at) {
    if (element == null) {
      throw new ConfigException(at, "must be an object, got nothing");
    }
    return element;
  }

  static String quote(Object v) {
    if (v == null) {
      return "nothing";
    }
    // A YAML/JSON number past a double (1e400) reads as Infinity: no BigDecimal spells that.
    String s = v instanceof Number n && !(n instanceof Double d && !Double.isFinite(d))
        && !(n instanceof Float f && !Float.isFinite(f)) ? new BigDecimal(n.toString()).toPlainString() : v.toString();
    return "\"" + oneLine(s) + "\"";
  }

  static String oneLine(String s) {
    String flat = s == null ? "" : s.replaceAll("\\s+", " ");
    return flat.length() > 80 ? flat.substring(0, 77) + "..." : flat;
  }
}
