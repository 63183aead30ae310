package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.VpaProjection;
import dev.kubeheadroom.projection.VpaTarget;
import dev.kubeheadroom.schemas.OwnerRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The VerticalPodAutoscalers of each namespace, as {@link VpaTarget}s, answering "does a VPA that
 * controls limits target this pod?" (such pods are not managed; docs/design/headroom-design.txt §8.3). Which pods a VPA
 * targets is {@link VpaTarget#targets}'s call (owner-chain matching lives in projection).
 */
public final class VpaIndex {
  private final Map<String, Map<String, VpaTarget>> byNamespace = new ConcurrentHashMap<>();

  /** Records a new or changed VPA; returns its namespace (whose pods need a new verdict). */
  public Optional<String> put(GenericKubernetesResource vpa) {
    String namespace = namespaceOf(vpa);
    if (namespace == null) {
      return Optional.empty();
    }
    Optional<VpaTarget> target = VpaProjection.project(vpa);
    Map<String, VpaTarget> vpas = byNamespace.computeIfAbsent(namespace, ns -> new ConcurrentHashMap<>());
    if (target.isPresent()) {
      vpas.put(vpa.getMetadata().getName(), target.get());
    } else {
      vpas.remove(vpa.getMetadata().getName()); // no usable targetRef: targets nothing
    }
    return Optional.of(namespace);
  }

  /** Forgets a deleted VPA; returns its namespace. */
  public Optional<String> remove(GenericKubernetesResource vpa) {
    String namespace = namespaceOf(vpa);
    if (namespace == null) {
      return Optional.empty();
    }
    Map<String, VpaTarget> vpas = byNamespace.get(namespace);
    if (vpas != null) {
      vpas.remove(vpa.getMetadata().getName());
    }
    return Optional.of(namespace);
  }

  /** Whether a VPA that controls limits targets a pod of {@code namespace} with these owners. */
  public boolean controlsLimits(String namespace, List<OwnerRef> owners) {
    Map<String, VpaTarget> vpas = byNamespace.get(namespace);
    if (vpas == null || owners.isEmpty()) {
      return false;
    }
    for (VpaTarget t : vpas.values()) {
      if (t.controlsLimits() && t.targets(namespace, owners)) {
        return true;
      }
    }
    return false;
  }

  private static String namespaceOf(GenericKubernetesResource vpa) {
    if (vpa == null || vpa.getMetadata() == null || vpa.getMetadata().getName() == null) {
      return null;
    }
    return vpa.getMetadata().getNamespace();
  }
}
