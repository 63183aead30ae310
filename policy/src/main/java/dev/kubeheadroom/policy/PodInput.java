package dev.kubeheadroom.policy;

import java.util.Objects;

/**
 * One non-terminal pod bound to the node, managed or not.
 *
 * @param key caller's identity for the pod (echoed in its decision)
 * @param requestMilli the pod's aggregate CPU request
 * @param currentLimitMilli the pod's current aggregate CPU limit; 0 = unset (see docs/design/policy.md)
 * @param managed eligible and opted in; only managed pods get a decision
 * @param userCapMilli the pod's own cap (max-cpu annotation, LimitRange max); 0 = none
 */
public record PodInput(
    String key, long requestMilli, long currentLimitMilli, boolean managed, long userCapMilli) {

  public PodInput {
    Objects.requireNonNull(key, "key");
    if (requestMilli < 0) {
      throw new IllegalArgumentException(key + ": requestMilli must be >= 0, got " + requestMilli);
    }
    if (currentLimitMilli < 0) {
      throw new IllegalArgumentException(
          key + ": currentLimitMilli must be >= 0, got " + currentLimitMilli);
    }
    if (userCapMilli < 0) {
      throw new IllegalArgumentException(key + ": userCapMilli must be >= 0, got " + userCapMilli);
    }
  }
}
