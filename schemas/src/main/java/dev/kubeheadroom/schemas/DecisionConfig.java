package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.PolicyConfig;

/**
 * The policy knobs a {@link NodeDecision} was computed with, as the {@code decisions} topic
 * carries them. The wire shape is this record's, not {@link PolicyConfig}'s: renaming a policy
 * field breaks the mapping here at compile time instead of silently changing the topic's format
 * (the golden files under {@code schemas/src/test/resources/golden} pin the bytes).
 */
public record DecisionConfig(
    long minBurstFloorMilli,
    double maxMultiplier,
    double deadbandGrow,
    double deadbandShrink,
    long quantumMilli) {

  /** As strict as the policy's config, so a record it would refuse is refused when read. */
  public DecisionConfig {
    Require.nonNegative(minBurstFloorMilli, "minBurstFloorMilli");
    if (!Double.isFinite(maxMultiplier)) {
      throw new IllegalArgumentException("maxMultiplier must be a finite number, got " + maxMultiplier);
    }
    if (!(deadbandGrow >= 0) || !(deadbandShrink >= 0) || Double.isInfinite(deadbandGrow)
        || Double.isInfinite(deadbandShrink)) {
      throw new IllegalArgumentException("deadbands must be non-negative fractions");
    }
  }

  public static DecisionConfig of(PolicyConfig config) {
    return new DecisionConfig(config.minBurstFloorMilli(), config.maxMultiplier(), config.deadbandGrow(),
        config.deadbandShrink(), config.quantumMilli());
  }

  /** The policy's config (validated there: a value it refuses throws IllegalArgumentException). */
  public PolicyConfig toPolicy() {
    return new PolicyConfig(minBurstFloorMilli, maxMultiplier, deadbandGrow, deadbandShrink, quantumMilli);
  }
}
