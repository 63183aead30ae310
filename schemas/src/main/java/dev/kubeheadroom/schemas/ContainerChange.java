package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.ContainerTarget;
import java.util.List;

/**
 * One container's limit change in a {@link PodChange}, as the {@code decisions} topic carries it
 * (mapped from the policy's {@link ContainerTarget}; see {@link DecisionConfig} for why).
 *
 * @param name container name
 * @param fromMilli its CPU limit before (0 = unset)
 * @param toMilli its new CPU limit
 */
public record ContainerChange(String name, long fromMilli, long toMilli) {

  public static ContainerChange of(ContainerTarget target) {
    return new ContainerChange(target.name(), target.fromMilli(), target.toMilli());
  }

  public static List<ContainerChange> of(List<ContainerTarget> targets) {
    return targets.stream().map(ContainerChange::of).toList();
  }

  public ContainerTarget toPolicy() {
    return new ContainerTarget(name, fromMilli, toMilli);
  }
}
