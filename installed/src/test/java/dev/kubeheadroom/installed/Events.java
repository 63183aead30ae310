package dev.kubeheadroom.installed;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/** The Events about one object, in either Events API ({@code v1} core or {@code events.k8s.io/v1}). */
final class Events {
  private Events() {}

  /** {@code reason: note} of every Event about pod {@code namespace/name}. */
  static List<String> about(KubernetesClient client, String namespace, String name) {
    List<String> out = new ArrayList<>();
    client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName()))
        .forEach(e -> out.add(e.getReason() + ": " + e.getMessage()));
    client.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getRegarding() != null && name.equals(e.getRegarding().getName()))
        .forEach(e -> out.add(e.getReason() + ": " + e.getNote()));
    return out;
  }
}
