package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.ConfigProjection.HUNDRED;
import static dev.kubeheadroom.projection.ConfigProjection.bounded;
import static dev.kubeheadroom.projection.ConfigProjection.or;
import static dev.kubeheadroom.projection.ConfigProjection.present;
import static dev.kubeheadroom.projection.ConfigProjection.quote;
import static dev.kubeheadroom.projection.ConfigProjection.selector;

import dev.kubeheadroom.projection.SpecValues.Cpu;
import dev.kubeheadroom.projection.SpecValues.GoTime;
import dev.kubeheadroom.projection.SpecValues.Percent;
import dev.kubeheadroom.projection.SpecValues.Text;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.Tenancy;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * HeadroomConfig {@code spec.pools} and {@code spec.tenancy} (docs/design/headroom-design.txt §11.1,
 * §11.4), as bound into {@link HeadroomConfigSpec}, → {@link NodePool}s and {@link Tenancy}: the
 * pools' part of {@link ConfigProjection}'s validation, with its field-naming errors:
 * {@code spec.pools[1].maxMultiplier: must be at most 100, got "150"}.
 */
final class PoolsProjection {
  /** A DNS-1123 label: pool names appear in decisions, reports and metrics. */
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  private PoolsProjection() {}

  /**
   * @param debounce the cluster's debounce, which a pool without its own takes
   * @param maxDelay the cluster's max debounce delay, likewise
   */
  static List<NodePool> pools(List<HeadroomConfigSpec.Pool> specs, Duration debounce, Duration maxDelay) {
    if (specs == null) {
      return List.of();
    }
    List<NodePool> pools = new ArrayList<>(specs.size());
    Set<String> names = new HashSet<>();
    for (int i = 0; i < specs.size(); i++) {
      String at = "spec.pools[" + i + "]";
      NodePool pool = pool(present(specs.get(i), at), at, debounce, maxDelay);
      if (!names.add(pool.name())) {
        throw new ConfigException(at + ".name", "must be unique, got " + quote(pool.name()) + " twice");
      }
      pools.add(pool);
    }
    return pools;
  }

  static Tenancy tenancy(Text raw) {
    if (raw == null) {
      return Tenancy.NONE;
    }
    for (Tenancy t : Tenancy.values()) {
      if (t.wireName().equals(raw.value())) {
        return t;
      }
    }
    throw new ConfigException("spec.tenancy", "must be None or Namespaces, got " + quote(raw.value()));
  }

  /** One pool; only here may {@code maxMultiplier} be {@code Unlimited}: no cap (a batch pool), as "0". */
  private static NodePool pool(HeadroomConfigSpec.Pool spec, String at, Duration debounce, Duration maxDelay) {
    String name = or(spec.name(), Text::value, null);
    if (name == null || !NAME.matcher(name).matches()) {
      throw new ConfigException(at + ".name",
          "must be a lowercase DNS label (a-z, 0-9, '-'), got " + quote(name));
    }
    if (spec.nodeSelector() == null) {
      throw new ConfigException(at + ".nodeSelector", "is required");
    }
    LabelSelector selector = selector(spec.nodeSelector(), at + ".nodeSelector");
    if (selector.isEmpty()) {
      throw new ConfigException(at + ".nodeSelector",
          "must have matchLabels or matchExpressions (an empty selector would match every node)");
    }
    Double multiplier = spec.maxMultiplier() == null ? null
        : bounded(at + ".maxMultiplier", spec.maxMultiplier(), true, BigDecimal.ZERO, HUNDRED, 0);
    HeadroomConfigSpec.Deadband deadband = or(spec.deadband(), d -> d, new HeadroomConfigSpec.Deadband(null, null));
    Duration poolDebounce = or(spec.debouncePeriod(), GoTime::value, null);
    Duration poolMaxDelay = or(spec.maxDebounceDelay(), GoTime::value, null);
    Duration effectiveDebounce = poolDebounce == null ? debounce : poolDebounce;
    Duration effectiveMaxDelay = poolMaxDelay == null ? maxDelay : poolMaxDelay;
    if (effectiveMaxDelay.compareTo(effectiveDebounce) < 0) {
      throw new ConfigException(at + ".maxDebounceDelay", "must be at least the pool's debouncePeriod ("
          + GoDuration.format(effectiveDebounce) + "), got " + quote(GoDuration.format(effectiveMaxDelay)));
    }
    return new NodePool(name, selector, or(spec.minBurstFloor(), Cpu::milli, null), multiplier,
        or(deadband.grow(), Percent::value, null), or(deadband.shrink(), Percent::value, null),
        poolDebounce, poolMaxDelay);
  }
}
