package dev.kubeheadroom.policy;

import java.util.Objects;

/**
 * Which tenant a pod belongs to, and how that tenant's claim on the node's slack is weighted
 * (hierarchical tenancy, docs/design/headroom-design.txt §11.1).
 *
 * @param name the tenant (Headroom uses the pod's namespace)
 * @param weightMultiplier scales the tenant's request share: a tenant's weight is
 *     {@code Σ its managed requests × weightMultiplier}, so 1 everywhere splits by request share
 *     and 2 gives a tenant twice the slack per requested core of its neighbours
 */
public record Tenant(String name, double weightMultiplier) {
  public static final double DEFAULT_WEIGHT_MULTIPLIER = 1.0;

  public Tenant {
    Objects.requireNonNull(name, "name");
    if (!Double.isFinite(weightMultiplier) || weightMultiplier <= 0) {
      throw new IllegalArgumentException(
          name + ": weightMultiplier must be a positive finite number, got " + weightMultiplier);
    }
  }

  public static Tenant of(String name) {
    return new Tenant(name, DEFAULT_WEIGHT_MULTIPLIER);
  }
}
