package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import dev.kubeheadroom.schemas.ClusterConfig.Webhook;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.Tenancy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The HeadroomConfig singleton (a {@link GenericKubernetesResource}) → {@link ClusterConfig}
 * (docs/design/config.md). Every spec field is optional and takes its docs/design/config.md default
 * ({@link ClusterConfig#DEFAULTS}); unknown fields are ignored (the CRD's structural schema prunes
 * them anyway). Anything invalid is refused with a {@link ConfigException} naming the field:
 * {@code spec.maxMultiplier: must be at most 100, got "150"}.
 *
 * <p>Value forms: CPU quantities ({@code minBurstFloor: "1"}, {@code quantum: "10m"}) and decimal
 * strings ({@code maxMultiplier: "10"}) also accept a YAML number; durations use Go syntax
 * ({@link GoDuration}); percents are integers from 0 to 100.
 */
public final class ConfigProjection {
  public static final String API_VERSION = HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION;
  public static final String KIND = "HeadroomConfig";

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)");

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
    Object rawSpec = object.getAdditionalProperties().get("spec");
    Map<String, Object> spec = rawSpec == null ? Map.of() : map(rawSpec, "spec");
    return spec(gen, spec);
  }

  private static ClusterConfig spec(long generation, Map<String, Object> spec) {
    ClusterConfig d = ClusterConfig.DEFAULTS;
    String policy = string(spec, "spec", "policy", d.policy());
    if (!ClusterConfig.POLICY_PROPORTIONAL.equals(policy)) {
      throw new ConfigException("spec.policy", "must be Proportional, got " + quote(policy));
    }
    boolean dryRun = bool(spec, "spec", "dryRun", d.dryRun());
    long minBurstFloor = cpu(spec, "spec", "minBurstFloor", d.minBurstFloorMilli());
    double maxMultiplier = decimal(spec, "spec", "maxMultiplier", d.maxMultiplier(),
        BigDecimal.ZERO, BigDecimal.valueOf(100));
    long quantum = cpu(spec, "spec", "quantum", d.quantumMilli());

    Map<String, Object> deadband = object(spec, "spec", "deadband");
    int grow = percent(deadband, "spec.deadband", "grow", d.deadbandGrowPercent());
    int shrink = percent(deadband, "spec.deadband", "shrink", d.deadbandShrinkPercent());

    Duration debounce = duration(spec, "debouncePeriod", d.debouncePeriod());
    Duration maxDelay = duration(spec, "maxDebounceDelay", d.maxDebounceDelay());
    if (maxDelay.compareTo(debounce) < 0) {
      throw new ConfigException("spec.maxDebounceDelay",
          "must be at least debouncePeriod (" + GoDuration.format(debounce) + "), got "
              + quote(GoDuration.format(maxDelay)));
    }
    Duration backoff = duration(spec, "backoffPeriod", d.backoffPeriod());

    Map<String, Object> rl = object(spec, "spec", "rateLimits");
    RateLimits rateLimits = new RateLimits(
        positive(rl, "spec.rateLimits", "perNodePatchesPerSecond", d.rateLimits().perNodePatchesPerSecond()),
        positive(rl, "spec.rateLimits", "clientQPS", d.rateLimits().clientQps()),
        (int) integer(rl, "spec.rateLimits", "clientBurst", d.rateLimits().clientBurst(), 1, Integer.MAX_VALUE));

    Map<String, Object> wh = object(spec, "spec", "webhook");
    Webhook webhook = new Webhook(
        bool(wh, "spec.webhook", "enabled", d.webhook().enabled()),
        decimal(wh, "spec.webhook", "initialMultiplier", d.webhook().initialMultiplier(),
            BigDecimal.ONE, BigDecimal.valueOf(100)));

    LabelSelector selector = spec.containsKey("namespaceSelector") && spec.get("namespaceSelector") != null
        ? selector(map(spec.get("namespaceSelector"), "spec.namespaceSelector"), "spec.namespaceSelector")
        : d.namespaceSelector();
    List<String> excluded = spec.containsKey("excludedNamespaces") && spec.get("excludedNamespaces") != null
        ? strings(spec.get("excludedNamespaces"), "spec.excludedNamespaces")
        : d.excludedNamespaces();
    List<NodePool> pools = PoolsProjection.pools(spec.get("pools"), debounce, maxDelay);
    Tenancy tenancy = PoolsProjection.tenancy(spec.get("tenancy"));
    Map<String, Object> gangs = object(spec, "spec", "gangs");
    List<String> ownerKinds = gangs.get("ownerKinds") == null ? d.gangOwnerKinds()
        : strings(gangs.get("ownerKinds"), "spec.gangs.ownerKinds");
    try {
      return new ClusterConfig(generation, policy, dryRun, minBurstFloor, maxMultiplier, quantum,
          grow, shrink, debounce, maxDelay, backoff, rateLimits, webhook, selector, excluded, pools, tenancy,
          ownerKinds);
    } catch (IllegalArgumentException e) {
      // Every rule the record enforces is checked above with a field name; this is a backstop.
      throw new ConfigException("spec", oneLine(e.getMessage()));
    }
  }

  static LabelSelector selector(Map<String, Object> raw, String path) {
    Map<String, String> matchLabels = new LinkedHashMap<>();
    Object ml = raw.get("matchLabels");
    if (ml != null) {
      for (Map.Entry<String, Object> e : map(ml, path + ".matchLabels").entrySet()) {
        if (!(e.getValue() instanceof String s)) {
          throw new ConfigException(path + ".matchLabels." + e.getKey(),
              "must be a string, got " + quote(e.getValue()));
        }
        matchLabels.put(e.getKey(), s);
      }
    }
    List<LabelSelector.Requirement> expressions = new ArrayList<>();
    Object me = raw.get("matchExpressions");
    if (me != null) {
      if (!(me instanceof List<?> list)) {
        throw new ConfigException(path + ".matchExpressions", "must be a list, got " + quote(me));
      }
      for (int i = 0; i < list.size(); i++) {
        String at = path + ".matchExpressions[" + i + "]";
        Map<String, Object> term = map(list.get(i), at);
        String key = string(term, at, "key", null);
        if (key == null || key.isEmpty()) {
          throw new ConfigException(at + ".key", "is required");
        }
        String operator = string(term, at, "operator", null);
        if (operator == null || !List.of("In", "NotIn", "Exists", "DoesNotExist").contains(operator)) {
          throw new ConfigException(at + ".operator",
              "must be one of In, NotIn, Exists, DoesNotExist, got " + quote(operator));
        }
        List<String> values = term.get("values") == null ? List.of() : strings(term.get("values"), at + ".values");
        boolean set = operator.equals("In") || operator.equals("NotIn");
        if (set && values.isEmpty()) {
          throw new ConfigException(at + ".values", "must not be empty for operator " + operator);
        }
        if (!set && !values.isEmpty()) {
          throw new ConfigException(at + ".values", "must be empty for operator " + operator);
        }
        expressions.add(new LabelSelector.Requirement(key, operator, values));
      }
    }
    return new LabelSelector(matchLabels, expressions);
  }

  // --- typed field readers: each names the field in its error ---

  static String string(Map<String, Object> m, String path, String key, String dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof String s)) {
      throw new ConfigException(path + "." + key, "must be a string, got " + quote(v));
    }
    return s;
  }

  static boolean bool(Map<String, Object> m, String path, String key, boolean dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Boolean b)) {
      throw new ConfigException(path + "." + key, "must be true or false, got " + quote(v));
    }
    return b;
  }

  static long cpu(Map<String, Object> m, String path, String key, long dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    String text = scalarText(v, path + "." + key, "a CPU quantity");
    try {
      return CpuQuantity.parseMilli(text);
    } catch (QuantityFormatException e) {
      throw new ConfigException(path + "." + key,
          "must be a non-negative CPU quantity (like \"1\" or \"10m\"), got " + quote(text));
    }
  }

  static double decimal(Map<String, Object> m, String path, String key, double dflt,
      BigDecimal min, BigDecimal max) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    String text = scalarText(v, path + "." + key, "a decimal string");
    if (!DECIMAL.matcher(text).matches()) {
      throw new ConfigException(path + "." + key, "must be a decimal number, got " + quote(text));
    }
    BigDecimal value = new BigDecimal(text.endsWith(".") ? text + "0" : text);
    if (value.compareTo(min) < 0) {
      throw new ConfigException(path + "." + key, "must be at least " + min.toPlainString() + ", got " + quote(text));
    }
    if (value.compareTo(max) > 0) {
      throw new ConfigException(path + "." + key, "must be at most " + max.toPlainString() + ", got " + quote(text));
    }
    return value.doubleValue();
  }

  private static double positive(Map<String, Object> m, String path, String key, double dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    String text = scalarText(v, path + "." + key, "a number");
    if (!DECIMAL.matcher(text).matches() || new BigDecimal(text.endsWith(".") ? text + "0" : text).signum() <= 0) {
      throw new ConfigException(path + "." + key, "must be a number greater than 0, got " + quote(text));
    }
    return new BigDecimal(text.endsWith(".") ? text + "0" : text).doubleValue();
  }

  static long integer(Map<String, Object> m, String path, String key, long dflt, long min, long max) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    long value;
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      value = ((Number) v).longValue();
    } else if (v instanceof Number n && isWhole(n)) {
      value = new BigDecimal(n.toString()).longValueExact();
    } else {
      throw new ConfigException(path + "." + key, "must be an integer, got " + quote(v));
    }
    if (value < min || value > max) {
      throw new ConfigException(path + "." + key,
          "must be " + (max == Integer.MAX_VALUE ? "at least " + min : "from " + min + " to " + max)
              + ", got " + quote(v));
    }
    return value;
  }

  static int percent(Map<String, Object> m, String path, String key, int dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    boolean whole = v instanceof Integer || v instanceof Long || (v instanceof Number n && isWhole(n));
    if (!whole) {
      throw new ConfigException(path + "." + key, "must be an integer percent from 0 to 100, got " + quote(v));
    }
    return (int) integer(m, path, key, dflt, 0, 100);
  }

  static Duration duration(Map<String, Object> m, String key, Duration dflt) {
    return duration(m, "spec", key, dflt);
  }

  static Duration duration(Map<String, Object> m, String path, String key, Duration dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    String field = path + "." + key;
    if (!(v instanceof String text)) {
      throw new ConfigException(field, "must be a duration string (like 2s, 500ms, 1m30s), got " + quote(v));
    }
    Duration d;
    try {
      d = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(field, e.getMessage() + ", got " + quote(text));
    }
    if (d.isNegative()) {
      throw new ConfigException(field, "must not be negative, got " + quote(text));
    }
    return d;
  }

  static Map<String, Object> object(Map<String, Object> m, String path, String key) {
    Object v = m.get(key);
    return v == null ? Map.of() : map(v, path + "." + key);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object v, String field) {
    if (!(v instanceof Map<?, ?>)) {
      throw new ConfigException(field, "must be an object, got " + quote(v));
    }
    return (Map<String, Object>) v;
  }

  static List<String> strings(Object v, String field) {
    if (!(v instanceof List<?> list)) {
      throw new ConfigException(field, "must be a list of strings, got " + quote(v));
    }
    List<String> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw new ConfigException(field + "[" + i + "]", "must be a string, got " + quote(list.get(i)));
      }
      out.add(s);
    }
    return out;
  }

  private static String scalarText(Object v, String field, String what) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Number n && isFinite(n)) {
      return new BigDecimal(n.toString()).toPlainString();
    }
    throw new ConfigException(field, "must be " + what + ", got " + quote(v));
  }

  /** A YAML/JSON number past a double (1e400) reads as Infinity: no BigDecimal spells that. */
  private static boolean isFinite(Number n) {
    return !(n instanceof Double d && !Double.isFinite(d)) && !(n instanceof Float f && !Float.isFinite(f));
  }

  private static boolean isWhole(Number n) {
    try {
      new BigDecimal(n.toString()).longValueExact();
      return true;
    } catch (ArithmeticException | NumberFormatException e) {
      return false;
    }
  }

  static String quote(Object v) {
    if (v == null) {
      return "nothing";
    }
    String s = v instanceof Number n && isFinite(n) ? new BigDecimal(n.toString()).toPlainString() : v.toString();
    return "\"" + oneLine(s) + "\"";
  }

  private static String oneLine(String s) {
    String flat = s == null ? "" : s.replaceAll("\\s+", " ");
    return flat.length() > 80 ? flat.substring(0, 77) + "..." : flat;
  }
}
