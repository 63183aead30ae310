package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.projection.LimitRangeCpu;
import io.fabric8.kubernetes.api.model.LimitRange;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A LimitRange {@code max.cpu} (per Container, or per Pod for the sum of its containers) or CPU
 * {@code maxLimitRequestRatio} in a managed namespace caps what Headroom can set: safe, raises stop
 * at the cap, but tenants see their limit plateau (runbook "Preflight", docs/design/headroom-design.txt §8.3). Reads
 * LimitRanges as the namespace projection does ({@link LimitRangeCpu}).
 */
public final class LimitRangeCheck implements Check {
  static final String NAME = "limitrange";

  @Override
  public Result run(Cluster cluster) {
    if (!cluster.limitRanges().readable()) {
      return Result.warn(NAME, cluster.limitRanges().unreadable() + ": LimitRange caps not checked",
          "run preflight with list on limitranges in every namespace");
    }
    Set<String> managed = Set.copyOf(cluster.managedNamespaces());
    List<String> caps = new ArrayList<>();
    for (LimitRange lr : cluster.limitRanges().items()) {
      for (LimitRangeCpu.Bound b : LimitRangeCpu.bounds(lr)) {
        if (b.namespace() == null || !managed.contains(b.namespace())) {
          continue;
        }
        String value = b.kind().ratio()
            ? "limit/request " + BigDecimal.valueOf(b.milli(), 3).stripTrailingZeros().toPlainString()
            : CpuQuantity.format(b.milli());
        caps.add(value + " in " + b.namespace() + " (LimitRange " + b.limitRange() + ", "
            + b.kind().describe() + ")");
      }
    }
    if (caps.isEmpty()) {
      return Result.pass(NAME, "no LimitRange max.cpu or maxLimitRequestRatio.cpu in the managed "
          + "namespaces: limits are bounded only by the node");
    }
    return Result.warn(NAME, "limits will plateau at " + Check.list(caps),
        "safe (raises stop at the cap); tell those namespaces' tenants, or raise or remove max.cpu "
            + "(or maxLimitRequestRatio.cpu) to let limits grow with node slack");
  }
}
