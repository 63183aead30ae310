package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.PodInput;
import java.util.List;

/**
 * One pod as the policy saw it, in a {@link NodeDecision}'s {@code inputs} (mapped from and to
 * the policy's {@link PodInput}; see {@link DecisionConfig} for why).
 *
 * @param key the pod's uid
 * @param requestMilli its aggregate CPU request
 * @param currentLimitMilli its aggregate CPU limit; 0 = unset
 * @param managed eligible and opted in
 * @param userCapMilli its own cap (max-cpu, LimitRange max); 0 = none
 */
public record DecisionInput(
    String key, long requestMilli, long currentLimitMilli, boolean managed, long userCapMilli) {

  /** As strict as the policy's input, so a record it would refuse is refused when read. */
  public DecisionInput {
    java.util.Objects.requireNonNull(key, "key");
    Require.nonNegative(requestMilli, "requestMilli");
    Require.nonNegative(currentLimitMilli, "currentLimitMilli");
    Require.nonNegative(userCapMilli, "userCapMilli");
  }

  public static DecisionInput of(PodInput pod) {
    return new DecisionInput(pod.key(), pod.requestMilli(), pod.currentLimitMilli(), pod.managed(),
        pod.userCapMilli());
  }

  public static List<DecisionInput> of(List<PodInput> pods) {
    return pods.stream().map(DecisionInput::of).toList();
  }

  /** The policy's input (validated there: a negative quantity throws IllegalArgumentException). */
  public PodInput toPolicy() {
    return new PodInput(key, requestMilli, currentLimitMilli, managed, userCapMilli);
  }

  public static List<PodInput> toPolicy(List<DecisionInput> inputs) {
    return inputs.stream().map(DecisionInput::toPolicy).toList();
  }
}
