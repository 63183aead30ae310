package dev.kubeheadroom.demo;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.VpaProjection;
import dev.kubeheadroom.projection.VpaTarget;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.ClusterReports;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated API server's final state in the {@code simulate} output form, judged with the
 * same projection and topology code, so a demo and a simulation of the same log compare directly.
 */
final class FinalState {
  private FinalState() {}

  static ClusterReport report(ApiServerDouble api, long events, long decisions, LimitWatcher watcher) {
    KubernetesClient client = api.seedClient();
    List<VpaTarget> vpas = new ArrayList<>();
    for (GenericKubernetesResource vpa : client.genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER)
        .inAnyNamespace().list().getItems()) {
      VpaProjection.project(vpa).ifPresent(vpas::add);
    }
    List<PodSnapshot> pods = new ArrayList<>();
    for (Pod pod : api.pods()) {
      PodProjection.project(pod, false).ifPresent(probe -> {
        boolean vpa = vpas.stream().anyMatch(v -> v.controlsLimits() && v.targets(probe.namespace(), probe.owners()));
        PodSnapshot snapshot = vpa ? PodProjection.project(pod, true).orElseThrow() : probe;
        if (!snapshot.terminal()) {
          pods.add(snapshot);
        }
      });
    }
    List<NodeSnapshot> nodes = client.nodes().list().getItems().stream().map(NodeProjection::project).toList();
    Map<String, List<LimitRange>> ranges = new HashMap<>();
    client.limitRanges().inAnyNamespace().list().getItems()
        .forEach(lr -> ranges.computeIfAbsent(lr.getMetadata().getNamespace(), k -> new ArrayList<>()).add(lr));
    Map<String, NamespaceInfo> namespaces = new HashMap<>();
    for (Namespace ns : client.namespaces().list().getItems()) {
      namespaces.put(ns.getMetadata().getName(),
          NamespaceProjection.project(ns, ranges.getOrDefault(ns.getMetadata().getName(), List.of())));
    }
    LastGoodConfig config = LastGoodConfig.INITIAL;
    GenericKubernetesResource hcfg = client.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG)
        .withName(HeadroomKeys.CONFIG_NAME).get();
    if (hcfg != null) {
      config = config.offer(hcfg);
    }
    ClusterConfig effective = config.config().withDryRun(false);
    long resizeCalls = watcher.changes().stream().map(c -> c.namespace() + "/" + c.pod() + "@" + c.at())
        .distinct().count();
    return ClusterReports.build(ClusterReports.bookings(nodes, pods), pods, namespaces::get, effective,
        Instant.now(), new ClusterReport.Summary(events, 0, decisions, resizeCalls));
  }
}
