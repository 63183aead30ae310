package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collection;
import java.util.OptionalLong;

/**
 * fabric8 {@link Namespace} plus its {@link LimitRange}s → {@link NamespaceInfo}.
 *
 * <p>The LimitRange cap is the smallest {@code max.cpu} over every {@code type: Container} item of
 * every LimitRange in the namespace (the API server enforces each of them, so the tightest wins);
 * 0 when none sets one. LimitRanges of other namespaces and unparseable values are skipped: the
 * API server validates them, so neither occurs in a real cluster.
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
        limitRangeMaxCpuMilli(name, limitRanges));
  }

  /** The smallest container {@code max.cpu} of the LimitRanges in {@code namespace}; 0 = none. */
  public static long limitRangeMaxCpuMilli(String namespace, Collection<LimitRange> limitRanges) {
    long min = 0;
    if (limitRanges == null) {
      return 0;
    }
    for (LimitRange lr : limitRanges) {
      if (lr == null || lr.getSpec() == null || lr.getSpec().getLimits() == null) {
        continue;
      }
      String lrNamespace = lr.getMetadata() == null ? null : lr.getMetadata().getNamespace();
      if (lrNamespace != null && !lrNamespace.equals(namespace)) {
        continue;
      }
      for (LimitRangeItem item : lr.getSpec().getLimits()) {
        if (!"Container".equals(item.getType()) || item.getMax() == null) {
          continue;
        }
        Quantity max = item.getMax().get("cpu");
        OptionalLong milli = CpuQuantity.tryParseMilli(max);
        if (milli.isPresent() && milli.getAsLong() > 0) {
          min = min == 0 ? milli.getAsLong() : Math.min(min, milli.getAsLong());
        }
      }
    }
    return min;
  }
}
