package dev.kubeheadroom.projection;

import dev.kubeheadroom.policy.LimitRangeCaps;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The one reading of a LimitRange's CPU constraints that bound the limits Headroom sets: what the
 * API server's LimitRanger (plugin/pkg/admission/limitranger/admission.go) enforces on pod create
 * and on {@code pods/resize}: {@code max.cpu} of {@code type: Container} and {@code type: Pod}
 * items, and {@code maxLimitRequestRatio.cpu} of either. The namespace projection folds them into
 * {@link LimitRangeCaps}; preflight lists them. Values that do not parse, or are 0, are skipped:
 * the API server validates LimitRanges, so neither occurs in a real cluster.
 */
public final class LimitRangeCpu {
  private static final String CPU = "cpu";

  private LimitRangeCpu() {}

  /** Which constraint a {@link Bound} is. */
  public enum Kind {
    CONTAINER_MAX("Container", "max.cpu"),
    POD_MAX("Pod", "max.cpu"),
    CONTAINER_RATIO("Container", "maxLimitRequestRatio.cpu"),
    POD_RATIO("Pod", "maxLimitRequestRatio.cpu");

    private final String type;
    private final String field;

    Kind(String type, String field) {
      this.type = type;
      this.field = field;
    }

    /** {@code Container max.cpu}, as a person reads it in the LimitRange. */
    public String describe() {
      return type + " " + field;
    }

    public boolean ratio() {
      return this == CONTAINER_RATIO || this == POD_RATIO;
    }
  }

  /**
   * One CPU constraint of a LimitRange.
   *
   * @param limitRange the LimitRange's name
   * @param namespace its namespace (null when the object has none)
   * @param kind which constraint
   * @param milli the max in millicores, or the ratio in thousandths
   */
  public record Bound(String limitRange, String namespace, Kind kind, long milli) {}

  /** Every CPU constraint of one LimitRange, in item order. */
  public static List<Bound> bounds(LimitRange lr) {
    if (lr == null || lr.getSpec() == null || lr.getSpec().getLimits() == null) {
      return List.of();
    }
    String name = lr.getMetadata() == null ? null : lr.getMetadata().getName();
    String namespace = lr.getMetadata() == null ? null : lr.getMetadata().getNamespace();
    List<Bound> out = new ArrayList<>();
    for (LimitRangeItem item : lr.getSpec().getLimits()) {
      if (item == null) {
        continue;
      }
      boolean container = "Container".equals(item.getType());
      if (!container && !"Pod".equals(item.getType())) {
        continue;
      }
      add(out, name, namespace, container ? Kind.CONTAINER_MAX : Kind.POD_MAX, item.getMax());
      add(out, name, namespace, container ? Kind.CONTAINER_RATIO : Kind.POD_RATIO,
          item.getMaxLimitRequestRatio());
    }
    return out;
  }

  /**
   * The caps of the LimitRanges in {@code namespace} (others are ignored): each the smallest of its
   * kind, since the API server enforces every LimitRange of the namespace.
   */
  public static LimitRangeCaps caps(String namespace, Collection<LimitRange> limitRanges) {
    if (limitRanges == null) {
      return LimitRangeCaps.NONE;
    }
    long containerMax = 0;
    long podMax = 0;
    long ratio = 0;
    for (LimitRange lr : limitRanges) {
      for (Bound b : bounds(lr)) {
        if (b.namespace() != null && !b.namespace().equals(namespace)) {
          continue;
        }
        switch (b.kind()) {
          case CONTAINER_MAX -> containerMax = LimitRangeCaps.tighter(containerMax, b.milli());
          case POD_MAX -> podMax = LimitRangeCaps.tighter(podMax, b.milli());
          case CONTAINER_RATIO, POD_RATIO -> ratio = LimitRangeCaps.tighter(ratio, b.milli());
        }
      }
    }
    return new LimitRangeCaps(containerMax, podMax, ratio);
  }

  private static void add(List<Bound> out, String name, String namespace, Kind kind,
      Map<String, Quantity> values) {
    if (values == null) {
      return;
    }
    OptionalLong milli = CpuQuantity.tryParseMilli(values.get(CPU));
    if (milli.isPresent() && milli.getAsLong() > 0) {
      out.add(new Bound(name, namespace, kind, milli.getAsLong()));
    }
  }
}
