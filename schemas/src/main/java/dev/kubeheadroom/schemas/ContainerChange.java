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

  /** An immutable list that the records holding it take as it is (a stream's list is copied again). */
  public static List<ContainerChange> of(List<ContainerTarget> targets) {
    ContainerChange[] changes = new ContainerChange[targets.size()];
    for (int i = 0; i < changes.length; i++) {
      changes[i] = of(targets.get(i));
    }
    return List.of(changes);
  }

  public ContainerTarget toPolicy() {
    return new ContainerTarget(name, fromMilli, toMilli);
  }
}
