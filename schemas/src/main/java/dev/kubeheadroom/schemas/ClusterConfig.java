package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.kubeheadroom.policy.PolicyConfig;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The HeadroomConfig singleton's spec, validated (docs/design/config.md). With no object, {@link #DEFAULTS}
 * (dry-run) is in force. Key of the compacted {@code config} topic: {@code cluster}.
 *
 * <p>{@code pools} and {@code tenancy} were added to schema version 1 (additive): they are not
 * written when empty / {@code None}, so a config without them keeps its bytes, and a record
 * written before them reads as having none.
 *
 * @param generation metadata.generation of the object it came from; 0 = built-in defaults
 * @param pools per-node-pool overrides, first match wins ({@link #poolFor})
 * @param tenancy how a node's slack is split across tenants
 * @param gangOwnerKinds {@code spec.gangs.ownerKinds}: the controller-owner kinds whose pods form
 *     a gang without the annotation ({@link GangKey}); empty (the default, not written): only the
 *     {@code kube-headroom.dev/gang} annotation makes gangs
 */
public record ClusterConfig(
    long generation,
    String policy,
    boolean dryRun,
    long minBurstFloorMilli,
    double maxMultiplier,
    long quantumMilli,
    int deadbandGrowPercent,
    int deadbandShrinkPercent,
    Duration debouncePeriod,
    Duration maxDebounceDelay,
    Duration backoffPeriod,
    RateLimits rateLimits,
    Webhook webhook,
    LabelSelector namespaceSelector,
    List<String> excludedNamespaces,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonSetter(nulls = Nulls.AS_EMPTY) List<NodePool> pools,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Tenancy.OmitNone.class) Tenancy tenancy,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonSetter(nulls = Nulls.AS_EMPTY) List<String> gangOwnerKinds)
    implements Versioned {

  public static final String POLICY_PROPORTIONAL = "Proportional";
  public static final double MAX_MULTIPLIER_LIMIT = 100.0;

  public static final ClusterConfig DEFAULTS =
      new ClusterConfig(
          0,
          POLICY_PROPORTIONAL,
          true,
          PolicyConfig.DEFAULT_MIN_BURST_FLOOR_MILLI,
          PolicyConfig.DEFAULT_MAX_MULTIPLIER,
          PolicyConfig.DEFAULT_QUANTUM_MILLI,
          10,
          5,
          Duration.ofSeconds(2),
          Duration.ofSeconds(10),
          Duration.ofSeconds(60),
          RateLimits.DEFAULTS,
          Webhook.DEFAULTS,
          LabelSelector.NONE,
          List.of("kube-system"),
          List.of(),
          Tenancy.NONE,
          List.of());

  public ClusterConfig {
    Require.nonNegative(generation, "generation");
    if (!POLICY_PROPORTIONAL.equals(policy)) {
      throw new IllegalArgumentException("policy must be Proportional, got " + policy);
    }
    Require.nonNegative(minBurstFloorMilli, "minBurstFloor");
    if (!(maxMultiplier >= 0 && maxMultiplier <= MAX_MULTIPLIER_LIMIT)) {
      throw new IllegalArgumentException(
          "maxMultiplier must be between 0 and 100 (0 disables the cap), got " + maxMultiplier);
    }
    Require.nonNegative(quantumMilli, "quantum");
    percent(deadbandGrowPercent, "deadband.grow");
    percent(deadbandShrinkPercent, "deadband.shrink");
    duration(debouncePeriod, "debouncePeriod");
    duration(maxDebounceDelay, "maxDebounceDelay");
    duration(backoffPeriod, "backoffPeriod");
    if (maxDebounceDelay.compareTo(debouncePeriod) < 0) {
      throw new IllegalArgumentException("maxDebounceDelay must be >= debouncePeriod");
    }
    if (rateLimits == null || webhook == null) {
      throw new IllegalArgumentException("rateLimits and webhook are required");
    }
    namespaceSelector = namespaceSelector == null ? LabelSelector.NONE : namespaceSelector;
    excludedNamespaces = Require.list(excludedNamespaces);
    pools = Require.list(pools);
    tenancy = tenancy == null ? Tenancy.NONE : tenancy;
    gangOwnerKinds = Require.list(gangOwnerKinds);
    Set<String> names = new HashSet<>();
    for (NodePool pool : pools) {
      if (!names.add(pool.name())) {
        throw new IllegalArgumentException("pools: the name " + pool.name() + " is used twice");
      }
      Duration debounce = pool.debouncePeriod() == null ? debouncePeriod : pool.debouncePeriod();
      Duration maxDelay = pool.maxDebounceDelay() == null ? maxDebounceDelay : pool.maxDebounceDelay();
      if (maxDelay.compareTo(debounce) < 0) {
        throw new IllegalArgumentException(
            "pools[" + pool.name() + "]: maxDebounceDelay must be >= debouncePeriod");
      }
    }
  }

  /** A config without gang owner kinds (every config before §11.6). */
  public ClusterConfig(long generation, String policy, boolean dryRun, long minBurstFloorMilli,
      double maxMultiplier, long quantumMilli, int deadbandGrowPercent, int deadbandShrinkPercent,
      Duration debouncePeriod, Duration maxDebounceDelay, Duration backoffPeriod,
      RateLimits rateLimits, Webhook webhook, LabelSelector namespaceSelector,
      List<String> excludedNamespaces, List<NodePool> pools, Tenancy tenancy) {
    this(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier, quantumMilli,
        deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay, backoffPeriod,
        rateLimits, webhook, namespaceSelector, excludedNamespaces, pools, tenancy, List.of());
  }

  /** A config without pools or tenancy (every config before §11.1 and §11.4). */
  public ClusterConfig(long generation, String policy, boolean dryRun, long minBurstFloorMilli,
      double maxMultiplier, long quantumMilli, int deadbandGrowPercent, int deadbandShrinkPercent,
      Duration debouncePeriod, Duration maxDebounceDelay, Duration backoffPeriod,
      RateLimits rateLimits, Webhook webhook, LabelSelector namespaceSelector,
      List<String> excludedNamespaces) {
    this(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier, quantumMilli,
        deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay, backoffPeriod,
        rateLimits, webhook, namespaceSelector, excludedNamespaces, List.of(), Tenancy.NONE);
  }

  /** The first pool whose selector matches the node's labels; empty: the cluster defaults apply. */
  public Optional<NodePool> poolFor(Map<String, String> nodeLabels) {
    for (NodePool pool : pools) {
      if (pool.matches(nodeLabels)) {
        return Optional.of(pool);
      }
    }
    return Optional.empty();
  }

  /**
   * The config in force on a node of {@code pool}: its overrides over this config's knobs (this
   * config itself when the pool is null, so a cluster without pools decides exactly as before).
   */
  public ClusterConfig forPool(NodePool pool) {
    if (pool == null) {
      return this;
    }
    return new ClusterConfig(generation, policy, dryRun,
        pool.minBurstFloorMilli() == null ? minBurstFloorMilli : pool.minBurstFloorMilli(),
        pool.maxMultiplier() == null ? maxMultiplier : pool.maxMultiplier(), quantumMilli,
        pool.deadbandGrowPercent() == null ? deadbandGrowPercent : pool.deadbandGrowPercent(),
        pool.deadbandShrinkPercent() == null ? deadbandShrinkPercent : pool.deadbandShrinkPercent(),
        pool.debouncePeriod() == null ? debouncePeriod : pool.debouncePeriod(),
        pool.maxDebounceDelay() == null ? maxDebounceDelay : pool.maxDebounceDelay(),
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces, pools, tenancy,
        gangOwnerKinds);
  }

  public ClusterConfig withPools(List<NodePool> value) {
    return new ClusterConfig(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay,
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces, value, tenancy,
        gangOwnerKinds);
  }

  public ClusterConfig withTenancy(Tenancy value) {
    return new ClusterConfig(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay,
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces, pools, value,
        gangOwnerKinds);
  }

  public ClusterConfig withGangOwnerKinds(List<String> value) {
    return new ClusterConfig(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay,
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces, pools, tenancy, value);
  }

  /** The pure policy's view of this config. */
  public PolicyConfig toPolicyConfig() {
    return new PolicyConfig(
        minBurstFloorMilli,
        maxMultiplier,
        deadbandGrowPercent / 100.0,
        deadbandShrinkPercent / 100.0,
        quantumMilli);
  }

  /**
   * Whether pods in this namespace are opted in (docs/design/config.md): not excluded, not labelled
   * {@code unmanaged}, and labelled {@code mode=managed} or matched by the namespaceSelector. The
   * label is an enum keyword and fail-closed: {@code true}, {@code yes} or absent manage nothing.
   */
  public boolean manages(NamespaceInfo namespace) {
    if (namespace == null || excludedNamespaces.contains(namespace.name())) {
      return false;
    }
    String mode = namespace.labels().get(HeadroomKeys.MODE_LABEL);
    if (HeadroomKeys.MANAGED.equals(mode)) {
      return true;
    }
    return !HeadroomKeys.UNMANAGED.equals(mode) && namespaceSelector.matches(namespace.labels());
  }

  public ClusterConfig withDryRun(boolean value) {
    return new ClusterConfig(generation, policy, value, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, debouncePeriod, maxDebounceDelay,
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces, pools, tenancy,
        gangOwnerKinds);
  }

  /** The same config with every time knob divided by {@code k} (demo {@code --speed}). */
  public ClusterConfig speedUp(double k) {
    if (!(k > 0)) {
      throw new IllegalArgumentException("speed must be > 0, got " + k);
    }
    return new ClusterConfig(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, divide(debouncePeriod, k),
        divide(maxDebounceDelay, k), divide(backoffPeriod, k), rateLimits.speedUp(k), webhook,
        namespaceSelector, excludedNamespaces,
        pools.stream().map(p -> p.withDebounce(divideOrNull(p.debouncePeriod(), k),
            divideOrNull(p.maxDebounceDelay(), k))).toList(),
        tenancy, gangOwnerKinds);
  }

  private static Duration divideOrNull(Duration d, double k) {
    return d == null ? null : divide(d, k);
  }

  private static Duration divide(Duration d, double k) {
    return Duration.ofNanos(Math.round(d.toNanos() / k));
  }

  private static void percent(int value, String field) {
    if (value < 0 || value > 100) {
      throw new IllegalArgumentException(field + " must be a percent from 0 to 100, got " + value);
    }
  }

  private static void duration(Duration value, String field) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(field + " must be a non-negative duration");
    }
  }

  /** API write budgets (docs/design/headroom-design.txt §6.2c, §7). */
  public record RateLimits(double perNodePatchesPerSecond, double clientQps, int clientBurst) {
    public static final RateLimits DEFAULTS = new RateLimits(10, 50, 100);

    public RateLimits {
      if (!(perNodePatchesPerSecond > 0) || !(clientQps > 0) || clientBurst < 1) {
        throw new IllegalArgumentException(
            "rateLimits must be positive (perNodePatchesPerSecond, clientQPS > 0; clientBurst >= 1)");
      }
    }

    RateLimits speedUp(double k) {
      return new RateLimits(perNodePatchesPerSecond * k, clientQps * k, clientBurst);
    }
  }

  /** Admission-time seeding (docs/design/headroom-design.txt §6.5). */
  public record Webhook(boolean enabled, double initialMultiplier) {
    public static final Webhook DEFAULTS = new Webhook(true, 2.0);

    public Webhook {
      if (!(initialMultiplier >= 1.0) || initialMultiplier > MAX_MULTIPLIER_LIMIT) {
        throw new IllegalArgumentException(
            "webhook.initialMultiplier must be between 1 and 100, got " + initialMultiplier);
      }
    }
  }

  @JsonIgnore
  public boolean isDefault() {
    return generation == 0;
  }
}
