package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.OwnerRef;
import java.util.List;

/**
 * What Headroom needs of one VerticalPodAutoscaler.
 *
 * @param namespace the VPA's namespace (a VPA only targets pods of its own namespace)
 * @param name the VPA's name
 * @param targetKind {@code spec.targetRef.kind} (Deployment, StatefulSet, ...)
 * @param targetName {@code spec.targetRef.name}
 * @param controlsLimits whether it writes CPU limits ({@link VpaProjection#controlsLimits})
 */
public record VpaTarget(
    String namespace, String name, String targetKind, String targetName, boolean controlsLimits) {

  /** Whether a pod with these owner references, in {@code podNamespace}, is this VPA's target. */
  public boolean targets(String podNamespace, List<OwnerRef> owners) {
    return namespace != null && namespace.equals(podNamespace)
        && VpaProjection.ownerChainMatches(targetKind, targetName, owners);
  }
}
