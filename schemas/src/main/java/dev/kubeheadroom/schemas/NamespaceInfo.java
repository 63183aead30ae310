package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.kubeheadroom.policy.LimitRangeCaps;
import java.util.Map;

/**
 * A namespace as Headroom sees it: key of the compacted {@code namespaces} topic.
 *
 * <p>The pod max and the ratio were added to schema version 1 (an additive change): a record
 * written before them reads with both at 0, i.e. as a namespace without those LimitRange caps,
 * until ingest publishes the namespace again.
 *
 * @param name namespace name
 * @param labels its labels (the opt-in label and whatever a namespaceSelector matches)
 * @param limitRangeMaxCpuMilli the smallest {@code type: Container} {@code max.cpu} over its
 *     LimitRanges; 0 = none
 * @param limitRangePodMaxCpuMilli the smallest {@code type: Pod} {@code max.cpu} (a cap on the
 *     pod's summed container limits); 0 = none
 * @param limitRangeCpuRatioMilli the smallest CPU {@code maxLimitRequestRatio} of either type, in
 *     thousandths (2 is 2000); 0 = none
 * @param slackWeight its {@code kube-headroom.dev/slack-weight} annotation under hierarchical
 *     tenancy; 0 = none (weight 1). Added later to schema version 1 and not written when 0, so a
 *     namespace without the annotation keeps its bytes.
 */
public record NamespaceInfo(
    String name,
    Map<String, String> labels,
    long limitRangeMaxCpuMilli,
    // Absent in records written before these fields (and null): 0, i.e. no such cap.
    @JsonSetter(nulls = Nulls.AS_EMPTY) long limitRangePodMaxCpuMilli,
    @JsonSetter(nulls = Nulls.AS_EMPTY) long limitRangeCpuRatioMilli,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) double slackWeight)
    implements Versioned {
  public NamespaceInfo {
    Require.text(name, "name");
    labels = Require.map(labels);
    Require.nonNegative(limitRangeMaxCpuMilli, "limitRangeMaxCpuMilli");
    Require.nonNegative(limitRangePodMaxCpuMilli, "limitRangePodMaxCpuMilli");
    Require.nonNegative(limitRangeCpuRatioMilli, "limitRangeCpuRatioMilli");
    if (!Double.isFinite(slackWeight) || slackWeight < 0) {
      throw new IllegalArgumentException("slackWeight must be a finite number >= 0, got " + slackWeight);
    }
  }

  /** A namespace without a slack weight. */
  public NamespaceInfo(String name, Map<String, String> labels, long limitRangeMaxCpuMilli,
      long limitRangePodMaxCpuMilli, long limitRangeCpuRatioMilli) {
    this(name, labels, limitRangeMaxCpuMilli, limitRangePodMaxCpuMilli, limitRangeCpuRatioMilli, 0);
  }

  /** This namespace with its slack weight annotation (0 = none). */
  public NamespaceInfo withSlackWeight(double value) {
    return new NamespaceInfo(name, labels, limitRangeMaxCpuMilli, limitRangePodMaxCpuMilli,
        limitRangeCpuRatioMilli, value);
  }

  /** The multiplier of its tenants' request share: the annotation, else 1. */
  @JsonIgnore
  public double slackWeightOrDefault() {
    return slackWeight > 0 ? slackWeight : 1.0;
  }

  /** A namespace whose LimitRanges set at most a container max. */
  public NamespaceInfo(String name, Map<String, String> labels, long limitRangeMaxCpuMilli) {
    this(name, labels, limitRangeMaxCpuMilli, 0, 0);
  }

  /** A namespace with these LimitRange caps. */
  public NamespaceInfo(String name, Map<String, String> labels, LimitRangeCaps caps) {
    this(name, labels, caps.containerMaxMilli(), caps.podMaxMilli(), caps.ratioMilli());
  }

  /**
   * Its LimitRange CPU caps, as the policy applies them ({@link LimitRangeCaps#NONE} when no
   * LimitRange caps CPU, most namespaces: no object made per read).
   */
  @JsonIgnore
  public LimitRangeCaps limitRangeCaps() {
    if (limitRangeMaxCpuMilli == 0 && limitRangePodMaxCpuMilli == 0 && limitRangeCpuRatioMilli == 0) {
      return LimitRangeCaps.NONE;
    }
    return new LimitRangeCaps(limitRangeMaxCpuMilli, limitRangePodMaxCpuMilli, limitRangeCpuRatioMilli);
  }
}
