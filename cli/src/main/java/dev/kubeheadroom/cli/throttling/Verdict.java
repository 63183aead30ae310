package dev.kubeheadroom.cli.throttling;

/** What the what-if concludes for one container (the wire names are the JSON's). */
public enum Verdict {
  /** Throttled in under {@link ThrottleWhatIf#THROTTLED_RATIO} of its periods and its p99 fits the limit. */
  COVERED("covered"),
  /** The suggested limit is above the limit the container has: that limit throttled it. */
  LIMIT_TOO_LOW("limit-too-low"),
  /**
   * Throttled with its p99 at {@link ThrottleWhatIf#AT_LIMIT_SHARE} of the limit or more: it used what
   * the limit allowed and wanted more; how much more its usage cannot show.
   */
  AT_LIMIT("at-limit"),
  /**
   * Throttled, yet its p99 over a step stays well under the limit: the bursts are shorter than the step (CFS
   * enforces the quota per 100 ms period), so the step's usage cannot size the limit.
   */
  THROTTLED_IN_BURSTS("throttled-in-bursts"),
  /** The container has no CPU limit: nothing throttles it. */
  NO_LIMIT("no-limit"),
  /** Prometheus has no usage for the container over the window. */
  NO_DATA("no-data");

  private final String wireName;

  Verdict(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
