package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import dev.kubeheadroom.schemas.HeadroomKeys;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * fabric8 {@link Namespace} plus its {@link LimitRange}s → {@link NamespaceInfo}.
 *
 * <p>The LimitRange caps are {@link LimitRangeCpu#caps}: the smallest {@code max.cpu} of every
 * {@code type: Container} item and of every {@code type: Pod} item, and the smallest CPU
 * {@code maxLimitRequestRatio}, over every LimitRange in the namespace (the API server enforces
 * each of them, so the tightest wins); 0 when none sets one.
 */
public final class NamespaceProjection {
  private static final Pattern WEIGHT = Pattern.compile("\\d{1,3}(\\.\\d{1,6})?|\\.\\d{1,6}");

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
        LimitRangeCpu.caps(name, limitRanges))
        .withSlackWeight(slackWeight(namespace.getMetadata().getAnnotations()));
  }

  /**
   * The {@code kube-headroom.dev/slack-weight} annotation: a decimal from 0 (exclusive) to 100.
   * Any other value is ignored (weight 1): an annotation the API server accepted is never an
   * error, and a tenant cannot claim an absurd weight with one.
   */
  static double slackWeight(Map<String, String> annotations) {
    String text = annotations == null ? null : annotations.get(HeadroomKeys.SLACK_WEIGHT_ANNOTATION);
    if (text == null || !WEIGHT.matcher(text.trim()).matches()) {
      return 0;
    }
    double weight = Double.parseDouble(text.trim());
    return weight > 0 && weight <= 100 ? weight : 0;
  }
}
