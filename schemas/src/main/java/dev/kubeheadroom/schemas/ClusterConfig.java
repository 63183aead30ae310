package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.kubeheadroom.policy.PolicyConfig;
import java.time.Duration;
import java.util.List;

/**
 * The HeadroomConfig singleton's spec, validated (docs/design/config.md). With no object, {@link #DEFAULTS}
 * (dry-run) is in force. Key of the compacted {@code config} topic: {@code cluster}.
 *
 * @param generation metadata.generation of the object it came from; 0 = built-in defaults
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
    List<String> excludedNamespaces)
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
          List.of("kube-system"));

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
        backoffPeriod, rateLimits, webhook, namespaceSelector, excludedNamespaces);
  }

  /** The same config with every time knob divided by {@code k} (demo {@code --speed}). */
  public ClusterConfig speedUp(double k) {
    if (!(k > 0)) {
      throw new IllegalArgumentException("speed must be > 0, got " + k);
    }
    return new ClusterConfig(generation, policy, dryRun, minBurstFloorMilli, maxMultiplier,
        quantumMilli, deadbandGrowPercent, deadbandShrinkPercent, divide(debouncePeriod, k),
        divide(maxDebounceDelay, k), divide(backoffPeriod, k), rateLimits.speedUp(k), webhook,
        namespaceSelector, excludedNamespaces);
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
