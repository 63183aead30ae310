package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.schemas.NamespaceInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Each pod's tenant under hierarchical tenancy: its namespace, weighted by the namespace's
 * slack-weight annotation (1 when it has none, or when the namespace is not known yet). A
 * decision's rows ({@link PodRows#tenants}) and an explanation's views get them the same way.
 */
public final class NamespaceTenants {
  private NamespaceTenants() {}

  /** The tenants of {@code views}' pods, in order. */
  public static List<Tenant> of(Map<String, NodeDecider.PodView> views, Function<String, NamespaceInfo> namespaces) {
    List<NodeDecider.PodView> pods = List.copyOf(views.values());
    return of(pods.size(), i -> pods.get(i).entry().pod().namespace(), (i, ns) -> namespaces.apply(ns));
  }

  /**
   * The tenants of pods {@code 0 .. pods-1}: pod {@code i}'s namespace, and that namespace's info
   * (null when not known yet), asked once per namespace.
   */
  static List<Tenant> of(int pods, IntFunction<String> namespaceOf, BiFunction<Integer, String, NamespaceInfo> infoOf) {
    Map<String, Tenant> byNamespace = new HashMap<>();
    List<Tenant> tenants = new ArrayList<>(pods);
    for (int i = 0; i < pods; i++) {
      int pod = i;
      tenants.add(byNamespace.computeIfAbsent(namespaceOf.apply(i), ns -> {
        NamespaceInfo info = infoOf.apply(pod, ns);
        return new Tenant(ns, info == null ? Tenant.DEFAULT_WEIGHT_MULTIPLIER : info.slackWeightOrDefault());
      }));
    }
    return tenants;
  }
}
