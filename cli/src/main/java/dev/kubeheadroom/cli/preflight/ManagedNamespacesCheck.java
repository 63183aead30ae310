package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.List;
import java.util.Map;

/**
 * Which namespaces are opted in ({@code kube-headroom.dev/mode=managed} or the namespaceSelector,
 * minus excludedNamespaces). Also flags mode values that manage nothing ({@code true},
 * {@code yes}): the label is a fail-closed enum keyword (docs/design/headroom-design.txt §6.3).
 */
public final class ManagedNamespacesCheck implements Check {
  static final String NAME = "managed-namespaces";

  @Override
  public Result run(Cluster cluster) {
    List<String> managed = cluster.managedNamespaces();
    List<String> mislabelled = cluster.namespaces().stream()
        .filter(ns -> ns.getMetadata() != null && ns.getMetadata().getName() != null)
        .filter(ManagedNamespacesCheck::hasUnknownMode)
        .map(ns -> ns.getMetadata().getName() + " (mode=" + ns.getMetadata().getLabels().get(HeadroomKeys.MODE_LABEL) + ")")
        .toList();
    String typo = mislabelled.isEmpty() ? ""
        : "; labelled with a value that manages nothing: " + Check.list(mislabelled);
    if (managed.isEmpty()) {
      return Result.warn(NAME, "no namespace is managed (none labelled " + HeadroomKeys.MODE_LABEL + "="
              + HeadroomKeys.MANAGED + " or matched by spec.namespaceSelector)" + typo,
          "kubectl label ns <namespace> " + HeadroomKeys.MODE_LABEL + "=" + HeadroomKeys.MANAGED);
    }
    String finding = managed.size() + " managed: " + Check.list(managed);
    if (!mislabelled.isEmpty()) {
      return Result.warn(NAME, finding + typo,
          "kubectl label ns <namespace> --overwrite " + HeadroomKeys.MODE_LABEL + "=" + HeadroomKeys.MANAGED);
    }
    return Result.pass(NAME, finding);
  }

  private static boolean hasUnknownMode(Namespace ns) {
    Map<String, String> labels = ns.getMetadata().getLabels();
    String mode = labels == null ? null : labels.get(HeadroomKeys.MODE_LABEL);
    return mode != null && !HeadroomKeys.MANAGED.equals(mode) && !HeadroomKeys.UNMANAGED.equals(mode);
  }
}
