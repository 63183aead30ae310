package dev.kubeheadroom.cli.preflight;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * No {@code limits.cpu} ResourceQuota in a managed namespace (runbook "Preflight", docs/design/headroom-design.txt §8.3): a
 * resize is delta-accounted against it, so raises eat tenant quota and an over-budget raise is
 * refused with 403 Forbidden. Quotas of unmanaged namespaces do not matter.
 */
public final class ResourceQuotaCheck implements Check {
  static final String NAME = "resourcequota";
  static final String LIMITS_CPU = "limits.cpu";


  @Override
  public Result run(Cluster cluster) {
    if (!cluster.quotas().readable()) {
      return Result.warn(NAME, cluster.quotas().unreadable() + ": limits.cpu quotas not checked",
          "run preflight with list on resourcequotas in every namespace");
    }
    Set<String> managed = Set.copyOf(cluster.managedNamespaces());
    List<ResourceQuota> offending = cluster.quotas().items().stream()
        .filter(q -> managed.contains(q.getMetadata().getNamespace()))
        .filter(q -> limitsCpu(q) != null)
        .toList();
    if (offending.isEmpty()) {
      return Result.pass(NAME, "no limits.cpu quota in the managed namespaces");
    }
    List<String> named = offending.stream()
        .map(q -> q.getMetadata().getNamespace() + "/" + q.getMetadata().getName() + " (limits.cpu "
            + limitsCpu(q) + ")")
        .toList();
    ResourceQuota first = offending.get(0);
    return Result.fail(NAME, "limits.cpu quota in managed namespaces: " + Check.list(named)
            + "; resizes will consume it and over-budget raises fail with 403 Forbidden",
        "drop limits.cpu and keep requests.cpu in each: kubectl patch resourcequota "
            + first.getMetadata().getName() + " -n " + first.getMetadata().getNamespace()
            + " --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/hard/limits.cpu\"}]'");
  }

  private static String limitsCpu(ResourceQuota q) {
    Map<String, Quantity> hard = q.getSpec() == null ? null : q.getSpec().getHard();
    Quantity limit = hard == null ? null : hard.get(LIMITS_CPU);
    return limit == null ? null : limit.toString();
  }
}
