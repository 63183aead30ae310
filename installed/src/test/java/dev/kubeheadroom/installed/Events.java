package dev.kubeheadroom.installed;

import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Headroom's Events about one object. Only Headroom's: the kubelets (real, and the stand-ins
 * that copy them) record {@code ResizeStarted}, {@code ResizeInfeasible}… Events of their own on
 * the same pods, which must not pass a check about what Headroom said. Headroom writes
 * {@code events.k8s.io/v1} Events with a {@code reportingController} in its API group; a real
 * server shows core Events there too, told apart by theirs ({@code kubelet}).
 */
final class Events {
  private static final String HEADROOM = HeadroomKeys.GROUP + "/";

  private Events() {}

  /** {@code reason: note} of every Event Headroom recorded about pod {@code namespace/name}. */
  static List<String> byHeadroomAbout(KubernetesClient client, String namespace, String name) {
    return client.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getRegarding() != null && name.equals(e.getRegarding().getName()))
        .filter(e -> e.getReportingController() != null && e.getReportingController().startsWith(HEADROOM))
        .map(e -> e.getReason() + ": " + e.getNote())
        .toList();
  }
}
