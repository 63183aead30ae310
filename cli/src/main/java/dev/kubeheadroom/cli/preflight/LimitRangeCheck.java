package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.projection.CpuQuantity;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A LimitRange {@code max.cpu} (per Container, or per Pod for the sum of its containers) in a
 * managed namespace caps what Headroom can set: safe, raises stop at the cap, but tenants see their
 * limit plateau (runbook "Preflight", design §8.3).
 */
public final class LimitRangeCheck implements Check {
  static final String NAME = "limitrange";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Result run(Cluster cluster) {
    if (!cluster.limitRanges().readable()) {
      return Result.warn(NAME, cluster.limitRanges().unreadable() + ": LimitRange caps not checked",
          "run preflight with list on limitranges in every namespace");
    }
    Set<String> managed = Set.copyOf(cluster.managedNamespaces());
    List<String> caps = new ArrayList<>();
    for (LimitRange lr : cluster.limitRanges().items()) {
      if (!managed.contains(lr.getMetadata().getNamespace()) || lr.getSpec() == null
          || lr.getSpec().getLimits() == null) {
        continue;
      }
      for (LimitRangeItem item : lr.getSpec().getLimits()) {
        String type = item.getType();
        if (!("Container".equals(type) || "Pod".equals(type)) || item.getMax() == null) {
          continue;
        }
        Quantity max = item.getMax().get("cpu");
        OptionalLong milli = CpuQuantity.tryParseMilli(max);
        if (milli.isPresent() && milli.getAsLong() > 0) {
          caps.add(CpuQuantity.format(milli.getAsLong()) + " in " + lr.getMetadata().getNamespace()
              + " (LimitRange " + lr.getMetadata().getName() + ", " + type + " max.cpu)");
        }
      }
    }
    if (caps.isEmpty()) {
      return Result.pass(NAME, "no LimitRange max.cpu in the managed namespaces: limits are bounded only by the node");
    }
    return Result.warn(NAME, "limits will plateau at " + Check.list(caps),
        "safe (raises stop at the cap); tell those namespaces' tenants, or raise or remove max.cpu "
            + "to let limits grow with node slack");
  }
}
