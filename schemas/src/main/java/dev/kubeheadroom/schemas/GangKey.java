package dev.kubeheadroom.schemas;

import java.util.List;

/**
 * What "a gang" is (docs/design/headroom-design.txt §11.6): a namespace-scoped group key.
 *
 * <ul>
 *   <li>A pod whose {@code kube-headroom.dev/gang} annotation is set (1 to {@value
 *       #MAX_VALUE_LENGTH} characters, after trimming) is in gang {@code <namespace>/<value>};
 *   <li>else, when the config lists its controller owner's kind ({@code spec.gangs.ownerKinds},
 *       e.g. {@code Job}, {@code PyTorchJob}), it is in gang {@code <namespace>/<Kind>/<name>};
 *   <li>else it is in no gang. An empty, blank or longer value is ignored (never an error).
 * </ul>
 * The namespace is always the pod's own, so two namespaces never share a gang whatever they write.
 */
public final class GangKey {
  /** Longest annotation value taken (a DNS subdomain's length): keys stay small on every topic. */
  public static final int MAX_VALUE_LENGTH = 253;

  private GangKey() {}

  /** The pod's gang key, or null when it is in none. */
  public static String of(PodSnapshot pod, List<String> ownerKinds) {
    String value = pod.gang() == null ? "" : pod.gang().trim();
    if (!value.isEmpty() && value.length() <= MAX_VALUE_LENGTH) {
      return pod.namespace() + "/" + value;
    }
    if (!ownerKinds.isEmpty()) {
      for (OwnerRef owner : pod.owners()) {
        if (owner.controller() && owner.kind() != null && owner.name() != null
            && ownerKinds.contains(owner.kind())) {
          return pod.namespace() + "/" + owner.kind() + "/" + owner.name();
        }
      }
    }
    return null;
  }

  /** The annotation value the projection keeps: the raw value, or null when absent. */
  public static String annotationValue(java.util.Map<String, String> annotations) {
    return annotations == null ? null : annotations.get(HeadroomKeys.GANG_ANNOTATION);
  }
}
