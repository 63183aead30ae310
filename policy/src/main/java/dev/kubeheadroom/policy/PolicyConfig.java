package dev.kubeheadroom.policy;

/**
 * The policy's knobs (docs/design/headroom-design.txt §5.2–5.3, §6.2). Defaults are {@link #DEFAULTS}.
 *
 * @param minBurstFloorMilli absolute burst floor; the effective floor is min(this, slack / N)
 * @param maxMultiplier cap at request × this; {@code <= 0} disables the cap
 * @param deadbandGrow relative change below which a raise is not applied
 * @param deadbandShrink relative change below which a cut is not applied (tighter: stale-generous
 *     limits are a fairness bug, stale-stingy ones only an efficiency bug)
 * @param quantumMilli targets are rounded to this step; {@code <= 0} disables quantization
 */
public record PolicyConfig(
    long minBurstFloorMilli,
    double maxMultiplier,
    double deadbandGrow,
    double deadbandShrink,
    long quantumMilli) {

  public static final long DEFAULT_MIN_BURST_FLOOR_MILLI = 1000;
  public static final double DEFAULT_MAX_MULTIPLIER = 10.0;
  public static final double DEFAULT_DEADBAND_GROW = 0.10;
  public static final double DEFAULT_DEADBAND_SHRINK = 0.05;
  public static final long DEFAULT_QUANTUM_MILLI = 10;

  public static final PolicyConfig DEFAULTS =
      new PolicyConfig(
          DEFAULT_MIN_BURST_FLOOR_MILLI,
          DEFAULT_MAX_MULTIPLIER,
          DEFAULT_DEADBAND_GROW,
          DEFAULT_DEADBAND_SHRINK,
          DEFAULT_QUANTUM_MILLI);

  public PolicyConfig {
    if (minBurstFloorMilli < 0) {
      throw new IllegalArgumentException("minBurstFloorMilli must be >= 0, got " + minBurstFloorMilli);
    }
    requireFinite("maxMultiplier", maxMultiplier);
    requireFraction("deadbandGrow", deadbandGrow);
    requireFraction("deadbandShrink", deadbandShrink);
  }

  public PolicyConfig withMinBurstFloorMilli(long value) {
    return new PolicyConfig(value, maxMultiplier, deadbandGrow, deadbandShrink, quantumMilli);
  }

  public PolicyConfig withMaxMultiplier(double value) {
    return new PolicyConfig(minBurstFloorMilli, value, deadbandGrow, deadbandShrink, quantumMilli);
  }

  public PolicyConfig withDeadbands(double grow, double shrink) {
    return new PolicyConfig(minBurstFloorMilli, maxMultiplier, grow, shrink, quantumMilli);
  }

  public PolicyConfig withQuantumMilli(long value) {
    return new PolicyConfig(minBurstFloorMilli, maxMultiplier, deadbandGrow, deadbandShrink, value);
  }

  private static void requireFinite(String name, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be a finite number, got " + value);
    }
  }

  private static void requireFraction(String name, double value) {
    if (!Double.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(name + " must be a non-negative fraction, got " + value);
    }
  }
}
