package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.Collection;

/**
 * fabric8 {@link Namespace} plus its {@link LimitRange}s → {@link NamespaceInfo}.
 *
 * <p>The LimitRange caps are {@link LimitRangeCpu#caps}: the smallest {@code max.cpu} of every
 * {@code type: Container} item and of every {@code type: Pod} item, and the smallest CPU
 * {@code maxLimitRequestRatio}, over every LimitRange in the namespace (the API server enforces
 * each of them, so the tightest wins); 0 when none sets one.
 */
public final class NamespaceProjection {
  private NamespaceProjection() {}

  /**
   * @param limitRanges the namespace's LimitRanges (any order; others are ignored)
   * @throws ProjectionException when the namespace has no name
   */
  public static NamespaceInfo project(Namespace namespace, Collection<LimitRange> limitRanges) {
    if (namespace == null || namespace.getMetadata() == null
        || namespace.getMetadata().getName() == null || namespace.getMetadata().getName().isEmpty()) {
      throw new ProjectionException("Namespace(?): metadata.name is required");
    }
    String name = namespace.getMetadata().getName();
    return new NamespaceInfo(name, namespace.getMetadata().getLabels(),
        LimitRangeCpu.caps(name, limitRanges));
  }
}
