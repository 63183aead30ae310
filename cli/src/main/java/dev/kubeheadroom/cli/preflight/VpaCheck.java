package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.projection.VpaProjection;
import dev.kubeheadroom.projection.VpaTarget;
import dev.kubeheadroom.schemas.OwnerRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * VPAs in managed namespaces must be {@code controlledValues: RequestsOnly} (or updateMode Off):
 * one that writes limits would fight Headroom over the same field, so its pods stay unmanaged
 * (docs/design/headroom-design.txt §8.3). Which pods a VPA targets is {@link VpaTarget#targets}'s owner-chain matching
 * (a Deployment's pods through their ReplicaSet {@code <deployment>-<hash>}).
 */
public final class VpaCheck implements Check {
  static final String NAME = "vpa";

  @Override
  public Result run(Cluster cluster) {
    if (!cluster.vpas().readable()) {
      return Result.warn(NAME, cluster.vpas().unreadable() + ": VPAs not checked",
          "run preflight with list on verticalpodautoscalers.autoscaling.k8s.io");
    }
    Set<String> managed = Set.copyOf(cluster.managedNamespaces());
    List<String> conflicting = new ArrayList<>();
    int inManaged = 0;
    for (GenericKubernetesResource vpa : cluster.vpas().items()) {
      if (vpa.getMetadata() == null || !managed.contains(vpa.getMetadata().getNamespace())) {
        continue;
      }
      inManaged++;
      Optional<VpaTarget> target = VpaProjection.project(vpa);
      if (target.isEmpty() || !target.get().controlsLimits()) {
        continue;
      }
      VpaTarget t = target.get();
      List<String> pods = cluster.managedPods().items().stream()
          .filter(p -> t.targets(p.getMetadata().getNamespace(), owners(p)))
          .map(p -> p.getMetadata().getName())
          .toList();
      conflicting.add(t.namespace() + "/" + t.name() + " (" + t.targetKind() + " " + t.targetName() + "; pods: "
          + (pods.isEmpty() ? "none yet" : Check.list(pods)) + ")");
    }
    if (conflicting.isEmpty()) {
      return Result.pass(NAME, inManaged == 0 ? "no VerticalPodAutoscaler in the managed namespaces"
          : Check.count(inManaged, "VPA") + " in the managed namespaces, none controls limits");
    }
    return Result.warn(NAME, "VPAs that control limits, their pods stay unmanaged: " + Check.list(conflicting),
        "set spec.resourcePolicy.containerPolicies: [{containerName: \"*\", controlledValues: RequestsOnly}] "
            + "on each (the tenant guide's VPA recipe), or accept those pods unmanaged");
  }

  private static List<OwnerRef> owners(Pod pod) {
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return List.of();
    }
    return refs.stream()
        .map(r -> new OwnerRef(r.getKind(), r.getName(), r.getUid(), Boolean.TRUE.equals(r.getController())))
        .toList();
  }
}
