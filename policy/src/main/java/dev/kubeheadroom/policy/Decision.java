package dev.kubeheadroom.policy;

/**
 * The policy's verdict for one managed pod.
 *
 * @param key the pod's key from its {@link PodInput}
 * @param targetLimitMilli the pod's aggregate CPU limit the policy wants
 * @param apply whether the change is worth a patch (outside the deadband)
 * @param reason why
 */
public record Decision(String key, long targetLimitMilli, boolean apply, Reason reason) {}
