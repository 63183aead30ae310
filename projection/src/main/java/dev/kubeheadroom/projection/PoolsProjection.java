package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.ConfigProjection.cpu;
import static dev.kubeheadroom.projection.ConfigProjection.decimal;
import static dev.kubeheadroom.projection.ConfigProjection.duration;
import static dev.kubeheadroom.projection.ConfigProjection.map;
import static dev.kubeheadroom.projection.ConfigProjection.object;
import static dev.kubeheadroom.projection.ConfigProjection.percent;
import static dev.kubeheadroom.projection.ConfigProjection.quote;
import static dev.kubeheadroom.projection.ConfigProjection.selector;
import static dev.kubeheadroom.projection.ConfigProjection.string;

import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.Tenancy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * HeadroomConfig {@code spec.pools} and {@code spec.tenancy} (docs/design/headroom-design.txt §11.1,
 * §11.4) → {@link NodePool}s and {@link Tenancy}, with the same field-naming errors as {@link
 * ConfigProjection}: {@code spec.pools[1].maxMultiplier: must be at most 100, got "150"}.
 */
final class PoolsProjection {
  /** A DNS-1123 label: pool names appear in decisions, reports and metrics. */
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /** {@code maxMultiplier: Unlimited} in a pool: no multiplier cap (a batch pool), the same as "0". */
  static final String UNLIMITED = "Unlimited";

  private PoolsProjection() {}

  /**
   * @param debounce the cluster's debounce, which a pool without its own takes
   * @param maxDelay the cluster's max debounce delay, likewise
   */
  static List<NodePool> pools(Object raw, Duration debounce, Duration maxDelay) {
    if (raw == null) {
      return List.of();
    }
    if (!(raw instanceof List<?> list)) {
      throw new ConfigException("spec.pools", "must be a list, got " + quote(raw));
    }
    List<NodePool> pools = new ArrayList<>(list.size());
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "spec.pools[" + i + "]";
      NodePool pool = pool(map(list.get(i), at), at, debounce, maxDelay);
      if (!names.add(pool.name())) {
        throw new ConfigException(at + ".name", "must be unique, got " + quote(pool.name()) + " twice");
      }
      pools.add(pool);
    }
    return pools;
  }

  static Tenancy tenancy(Object raw) {
    if (raw == null) {
      return Tenancy.NONE;
    }
    for (Tenancy t : Tenancy.values()) {
      if (t.wireName().equals(raw)) {
        return t;
      }
    }
    throw new ConfigException("spec.tenancy", "must be None or Namespaces, got " + quote(raw));
  }

  private static NodePool pool(Map<String, Object> m, String at, Duration debounce, Duration maxDelay) {
    String name = string(m, at, "name", null);
    if (name == null || !NAME.matcher(name).matches()) {
      throw new ConfigException(at + ".name",
          "must be a lowercase DNS label (a-z, 0-9, '-'), got " + quote(name));
    }
    Object rawSelector = m.get("nodeSelector");
    if (rawSelector == null) {
      throw new ConfigException(at + ".nodeSelector", "is required");
    }
    LabelSelector selector = selector(map(rawSelector, at + ".nodeSelector"), at + ".nodeSelector");
    if (selector.isEmpty()) {
      throw new ConfigException(at + ".nodeSelector",
          "must have matchLabels or matchExpressions (an empty selector would match every node)");
    }
    Long floor = m.get("minBurstFloor") == null ? null : cpu(m, at, "minBurstFloor", 0);
    Double multiplier = UNLIMITED.equals(m.get("maxMultiplier")) ? Double.valueOf(0)
        : m.get("maxMultiplier") == null ? null
        : decimal(m, at, "maxMultiplier", 0, BigDecimal.ZERO, BigDecimal.valueOf(100));
    Map<String, Object> deadband = object(m, at, "deadband");
    Integer grow = deadband.get("grow") == null ? null : percent(deadband, at + ".deadband", "grow", 0);
    Integer shrink = deadband.get("shrink") == null ? null : percent(deadband, at + ".deadband", "shrink", 0);
    Duration poolDebounce = duration(m, at, "debouncePeriod", null);
    Duration poolMaxDelay = duration(m, at, "maxDebounceDelay", null);
    Duration effectiveDebounce = poolDebounce == null ? debounce : poolDebounce;
    Duration effectiveMaxDelay = poolMaxDelay == null ? maxDelay : poolMaxDelay;
    if (effectiveMaxDelay.compareTo(effectiveDebounce) < 0) {
      throw new ConfigException(at + ".maxDebounceDelay", "must be at least the pool's debouncePeriod ("
          + GoDuration.format(effectiveDebounce) + "), got " + quote(GoDuration.format(effectiveMaxDelay)));
    }
    return new NodePool(name, selector, floor, multiplier, grow, shrink, poolDebounce, poolMaxDelay);
  }
}
