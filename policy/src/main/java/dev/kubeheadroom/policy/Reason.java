package dev.kubeheadroom.policy;

/** Why a decision applies or not; {@link #wireName()} is the stable text used in records and CLI. */
public enum Reason {
  /** The target equals the current limit. */
  UNCHANGED("unchanged"),
  /** The pod has no limit yet; any target is applied. */
  SET("set"),
  /** The target is higher by at least the grow deadband. */
  GROW("grow"),
  /** The target is lower by at least the shrink deadband. */
  SHRINK("shrink"),
  /** The target moved, but by less than the deadband. */
  WITHIN_DEADBAND("within-deadband"),
  /** Left alone: the only legal limit would make the pod Guaranteed (QoS must never change). */
  QOS_GUARD("qos-guard"),
  /**
   * Applied whatever the deadband says: a container's limit is below its request (the request was
   * raised since), which the API server refuses to hold; the limit moves to the target.
   */
  BELOW_REQUEST("below-request"),
  /**
   * The pod's cap ({@code max-cpu}, a LimitRange max) is at or below its request while memory is
   * Guaranteed: no limit honours both the cap and the QoS class, so QoS wins at its floor, the
   * request plus one quantum (docs/tenant-guide.md, "max-cpu").
   */
  CAP_BELOW_QOS_FLOOR("cap-below-qos-floor");

  private final String wireName;

  Reason(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Reason fromWireName(String name) {
    for (Reason reason : values()) {
      if (reason.wireName.equals(name)) {
        return reason;
      }
    }
    throw new IllegalArgumentException("unknown reason: " + name);
  }
}
