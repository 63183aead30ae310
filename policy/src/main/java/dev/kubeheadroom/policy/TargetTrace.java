package dev.kubeheadroom.policy;

/**
 * How one managed pod's target was reached, step by step (docs/design/policy.md steps 1–4): what
 * {@code explain} prints. {@link SlackPolicy} computes every target through this, so the
 * explanation cannot drift from the arithmetic.
 *
 * @param requestMilli the pod's request
 * @param shared false when there was nothing to share (no slack or no managed requests)
 * @param proportionalMilli slack · request / M (0 when not shared)
 * @param floorMilli min(minBurstFloor, slack / N) (0 when not shared)
 * @param burstMilli round(max(proportional, floor))
 * @param rawMilli request + burst, before caps (the request itself when not shared)
 * @param capMilli the effective cap: min(allocatable, request · maxMultiplier, userCap), never
 *     below the request
 * @param boundBy which cap bound the raw value, or {@link Bound#NONE}
 * @param targetMilli the quantized target
 */
public record TargetTrace(
    long requestMilli,
    boolean shared,
    double proportionalMilli,
    double floorMilli,
    long burstMilli,
    long rawMilli,
    long capMilli,
    Bound boundBy,
    long targetMilli) {

  /** The cap that decided a target, if one did. */
  public enum Bound {
    NONE,
    ALLOCATABLE,
    MAX_MULTIPLIER,
    USER_CAP;
  }

  /** Whether the slack-aware floor, not the proportional share, gave the burst. */
  public boolean floorWon() {
    return shared && floorMilli > proportionalMilli;
  }
}
