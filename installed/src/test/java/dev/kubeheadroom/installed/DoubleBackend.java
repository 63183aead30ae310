package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The API double and its kubelet: a fresh one per cluster. The double's admission chain calls the
 * webhook through {@code clientConfig.service} as configured, routed to the replica's port.
 */
record DoubleBackend(ApiServerDouble api, KubeletDouble kubelet) implements ClusterBackend {

  static DoubleBackend start() {
    ApiServerDouble api = ApiServerDouble.start();
    return new DoubleBackend(api, KubeletDouble.start(api));
  }

  @Override
  public KubernetesClient admin() {
    return api.client();
  }

  @Override
  public void writeKubeconfig(String namespace, String serviceAccount, Path file) {
    api.writeKubeconfig(namespace, serviceAccount, file);
  }

  @Override
  public String serviceAccountToken(String namespace, String serviceAccount) {
    return api.serviceAccountToken(namespace, serviceAccount);
  }

  @Override
  public List<String> webhookAddresses() {
    return List.of();
  }

  @Override
  public void routeWebhook(String configuration, ServiceReference service, int target) {
    int port = service.getPort() == null ? 443 : service.getPort();
    api.routeService(service.getNamespace(), service.getName(), port, new InetSocketAddress("127.0.0.1", target));
  }

  @Override
  public List<ApiCall> calls() {
    return api.requests().entries().stream().map(ApiCall::of).toList();
  }

  /** The double's kubelet keeps no Node of its own: the Node is created as the kubelet would. */
  @Override
  public void registerNode(String name, String cpu, String memory) {
    Map<String, Quantity> resources = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory),
        "pods", new Quantity("110"));
    api.client().nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
        .withNewStatus().withCapacity(resources).withAllocatable(resources).endStatus().build()).create();
  }

  @Override
  public void refuseResizes(String node, String message) {
    kubelet.answerResizes(node, KubeletDouble.ResizeAnswer.INFEASIBLE, message);
  }

  @Override
  public boolean sharedByClasses() {
    return false;
  }

  @Override
  public void close() {
    kubelet.close();
    api.close();
  }
}
