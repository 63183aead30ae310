package dev.kubeheadroom.policy;

import java.util.List;
import java.util.Objects;

/**
 * One container of a managed pod whose CPU limit Headroom may set (app containers and restartable
 * init "sidecar" containers).
 *
 * @param name container name
 * @param requestMilli its CPU request; 0 = none, so it gets no computed limit
 * @param currentLimitMilli its CPU limit; 0 = none
 * @param memoryGuaranteed memory request and limit are both set and equal, so a CPU limit equal to
 *     the CPU request would make this container Guaranteed-shaped
 */
public record ContainerInput(
    String name, long requestMilli, long currentLimitMilli, boolean memoryGuaranteed) {

  public ContainerInput {
    Objects.requireNonNull(name, "name");
    if (requestMilli < 0 || currentLimitMilli < 0) {
      throw new IllegalArgumentException(name + ": CPU quantities must be >= 0");
    }
  }

  /** Σ request over the containers, saturating at {@link Long#MAX_VALUE}. */
  public static long podRequestMilli(List<ContainerInput> containers) {
    long sum = 0;
    for (ContainerInput c : containers) {
      sum = Saturating.add(sum, c.requestMilli());
    }
    return sum;
  }

  /**
   * A pod's current limit (docs/design/policy.md): Σ limit over the containers with a CPU request, or 0 when
   * any of them has no limit.
   */
  public static long podCurrentLimitMilli(List<ContainerInput> containers) {
    long sum = 0;
    for (ContainerInput c : containers) {
      if (c.requestMilli() > 0) {
        if (c.currentLimitMilli() <= 0) {
          return 0;
        }
        sum = Saturating.add(sum, c.currentLimitMilli());
      }
    }
    return sum;
  }
}
