package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything preflight reads from the cluster, read once ({@link ClusterReader}); the checks are
 * pure functions of it.
 *
 * @param version the API server's version
 * @param config the HeadroomConfig outcome and the config it leaves in force
 * @param namespaces every namespace
 * @param quotas every ResourceQuota (the check keeps those of managed namespaces)
 * @param limitRanges every LimitRange (likewise)
 * @param nodes every node
 * @param managedPods the pods of the managed namespaces
 * @param vpas every VerticalPodAutoscaler; empty when the VPA API is not served
 * @param certManagerCrd the {@code certificates.cert-manager.io} CRD, if it exists
 */
public record Cluster(
    KubeVersion version,
    ConfigState config,
    List<Namespace> namespaces,
    Listing<ResourceQuota> quotas,
    Listing<LimitRange> limitRanges,
    Listing<Node> nodes,
    Listing<Pod> managedPods,
    Listing<GenericKubernetesResource> vpas,
    Listing<CustomResourceDefinition> certManagerCrd) {

  public Cluster {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(config, "config");
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(quotas, "quotas");
    Objects.requireNonNull(limitRanges, "limitRanges");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(managedPods, "managedPods");
    Objects.requireNonNull(vpas, "vpas");
    Objects.requireNonNull(certManagerCrd, "certManagerCrd");
  }

  /** The names of the namespaces the config in force manages, in listing order. */
  public List<String> managedNamespaces() {
    return managedNamespaces(namespaces, config.inForce());
  }

  /** The namespaces {@code config} manages ({@link ClusterConfig#manages}). */
  public static List<String> managedNamespaces(List<Namespace> namespaces, ClusterConfig config) {
    return namespaces.stream()
        .filter(ns -> ns.getMetadata() != null && ns.getMetadata().getName() != null)
        .filter(ns -> config.manages(info(ns)))
        .map(ns -> ns.getMetadata().getName())
        .toList();
  }

  static NamespaceInfo info(Namespace ns) {
    Map<String, String> labels = ns.getMetadata().getLabels();
    return new NamespaceInfo(ns.getMetadata().getName(), labels == null ? Map.of() : labels, 0);
  }
}
