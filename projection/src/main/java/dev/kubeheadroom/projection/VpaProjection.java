package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.OwnerRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code autoscaling.k8s.io/v1} VerticalPodAutoscaler (as a {@link GenericKubernetesResource}) →
 * {@link VpaTarget}. A pod targeted by a VPA that controls limits is not managed (docs/design/pipeline.md
 * "Records"): Headroom and the VPA would fight over the same field.
 *
 * <p>Matching pods to VPAs is the caller's job (ingest resolves them); {@link
 * #ownerChainMatches} decides it from a pod's owner references alone.
 */
public final class VpaProjection {
  public static final String GROUP = "autoscaling.k8s.io";

  private VpaProjection() {}

  /** The VPA's target and whether it controls limits; empty when it has no usable targetRef. */
  public static Optional<VpaTarget> project(GenericKubernetesResource vpa) {
    if (vpa == null || vpa.getMetadata() == null) {
      return Optional.empty();
    }
    Map<String, Object> spec = child(vpa.getAdditionalProperties(), "spec");
    Map<String, Object> targetRef = child(spec, "targetRef");
    String kind = text(targetRef.get("kind"));
    String name = text(targetRef.get("name"));
    if (kind == null || name == null) {
      return Optional.empty();
    }
    return Optional.of(new VpaTarget(vpa.getMetadata().getNamespace(), vpa.getMetadata().getName(),
        kind, name, controlsLimits(vpa)));
  }

  /**
   * Whether the VPA writes limits: its {@code updatePolicy.updateMode} is not {@code Off} (absent
   * means Auto) and some container can get {@code controlledValues: RequestsAndLimits} (the
   * default). A container policy with {@code mode: Off} controls nothing.
   *
   * <p>Deliberately conservative: container policies name containers, and a container no policy
   * names (when there is no {@code "*"} policy) gets the default, RequestsAndLimits. Without the
   * pod's container names this cannot be ruled out, so such a VPA counts as controlling limits. The
   * cost of that error is a pod left unmanaged; the cost of the other error is two controllers
   * fighting over one limit.
   */
  public static boolean controlsLimits(GenericKubernetesResource vpa) {
    if (vpa == null) {
      return false;
    }
    Map<String, Object> spec = child(vpa.getAdditionalProperties(), "spec");
    if ("Off".equals(text(child(spec, "updatePolicy").get("updateMode")))) {
      return false;
    }
    Object policies = child(spec, "resourcePolicy").get("containerPolicies");
    if (!(policies instanceof List<?> list) || list.isEmpty()) {
      return true;
    }
    boolean wildcard = false;
    for (Object p : list) {
      if (!(p instanceof Map<?, ?> policy)) {
        continue;
      }
      if ("*".equals(text(policy.get("containerName")))) {
        wildcard = true;
      }
      boolean off = "Off".equals(text(policy.get("mode")));
      if (!off && !"RequestsOnly".equals(text(policy.get("controlledValues")))) {
        return true;
      }
    }
    return !wildcard;
  }

  /**
   * Whether a pod with these owner references belongs to the workload {@code targetKind/targetName}.
   *
   * <ul>
   *   <li>Direct owner of the same kind and name: StatefulSet, DaemonSet, Job, ReplicaSet,
   *       ReplicationController, or any custom kind.
   *   <li>Deployment: the pod's ReplicaSet owner named {@code <deployment>-<pod-template-hash>}.
   *   <li>CronJob: the pod's Job owner named {@code <cronjob>-<scheduled-time>}.
   * </ul>
   * <b>Approximation:</b> the last two strip the final {@code -suffix} from the owner's name instead
   * of reading the ReplicaSet's (or Job's) own ownerReferences, which would need another lookup. A
   * ReplicaSet created by hand and named like a Deployment's would match that Deployment. Owners'
   * API groups are not compared.
   */
  public static boolean ownerChainMatches(String targetKind, String targetName, List<OwnerRef> owners) {
    if (targetKind == null || targetName == null || owners == null) {
      return false;
    }
    for (OwnerRef owner : owners) {
      if (owner == null || owner.name() == null) {
        continue;
      }
      if (targetKind.equals(owner.kind()) && targetName.equals(owner.name())) {
        return true;
      }
      if ("Deployment".equals(targetKind) && "ReplicaSet".equals(owner.kind())
          && targetName.equals(stripSuffix(owner.name()))) {
        return true;
      }
      if ("CronJob".equals(targetKind) && "Job".equals(owner.kind())
          && targetName.equals(stripSuffix(owner.name()))) {
        return true;
      }
    }
    return false;
  }

  /** {@code web-7c9d} → {@code web}; null when there is no non-empty suffix to strip. */
  static String stripSuffix(String name) {
    int dash = name.lastIndexOf('-');
    return dash <= 0 || dash == name.length() - 1 ? null : name.substring(0, dash);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> child(Map<String, Object> parent, String key) {
    Object v = parent == null ? null : parent.get(key);
    return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static String text(Object v) {
    return v instanceof String s && !s.isEmpty() ? s : null;
  }
}
