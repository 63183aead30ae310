package dev.kubeheadroom.cli.preflight;

import java.util.List;

/**
 * One preflight check (runbook "Preflight"): a pure function of what was read from the cluster,
 * giving one row that names what it found and the exact fix.
 */
public sealed interface Check
    permits KubernetesVersionCheck, HeadroomConfigCheck, DryRunCheck, ManagedNamespacesCheck,
        ResourceQuotaCheck, LimitRangeCheck, NodeCheck, VpaCheck, CertManagerCheck {

  /** Every check, in report order. */
  List<Check> ALL = List.of(new KubernetesVersionCheck(), new HeadroomConfigCheck(), new DryRunCheck(),
      new ManagedNamespacesCheck(), new ResourceQuotaCheck(), new LimitRangeCheck(), new NodeCheck(),
      new VpaCheck(), new CertManagerCheck());

  /** The row, named for scripts ({@code resourcequota}: each check's {@code NAME}). */
  Result run(Cluster cluster);

  /** Runs every check. */
  static List<Result> runAll(Cluster cluster) {
    return ALL.stream().map(c -> c.run(cluster)).toList();
  }

  /** {@code 1 node}, {@code 2 nodes}. */
  static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** {@code a, b, c and 4 more}: object lists stay readable in one table cell. */
  static String list(List<String> items) {
    int shown = 5;
    if (items.size() <= shown) {
      return String.join(", ", items);
    }
    return String.join(", ", items.subList(0, shown)) + " and " + (items.size() - shown) + " more";
  }
}
