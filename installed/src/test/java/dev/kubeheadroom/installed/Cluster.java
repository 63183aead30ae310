package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * A test cluster: the API double and its kubelet, and the tenants' objects a test puts in it. The
 * tenants act through the double's admin client, so their pod CREATEs go through admission (the
 * webhook) as a controller's or a user's would.
 */
final class Cluster implements AutoCloseable {
  static final Duration CONVERGE = Duration.ofSeconds(60);
  static final String CONTAINER = "app";

  final ApiServerDouble api;
  final KubeletDouble kubelet;

  private Cluster() {
    api = ApiServerDouble.start();
    kubelet = KubeletDouble.start(api);
  }

  static Cluster start() {
    return new Cluster();
  }

  KubernetesClient admin() {
    return api.client();
  }

  /** A namespace labelled {@code kube-headroom.dev/mode=managed}. */
  void managedNamespace(String name) {
    admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build()).create();
  }

  /** A Linux node with {@code cpu} allocatable (the scheduler's view the policy divides). */
  void node(String name, String cpu) {
    admin().nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("64Gi")))
        .endStatus().build()).create();
  }

  /** A pod bound to {@code node} (as after scheduling), one container requesting {@code cpu}, no limit. */
  Pod pod(String namespace, String name, String node, String cpu) {
    Pod pod = new PodBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec().withNodeName(node)
          .addNewContainer().withName(CONTAINER).withImage("registry.example/app:1")
            .withNewResources().addToRequests("cpu", new Quantity(cpu))
              .addToRequests("memory", new Quantity("256Mi")).endResources()
          .endContainer()
        .endSpec().build();
    return admin().pods().inNamespace(namespace).resource(pod).create();
  }

  /** The pod's CPU limit in millicores at the double; 0 when it has none or does not exist. */
  long cpuLimitMilli(String namespace, String name) {
    return api.pod(namespace, name).map(Cluster::limitMilli).orElse(0L);
  }

  static long limitMilli(Pod pod) {
    Container c = pod.getSpec().getContainers().get(0);
    Quantity q = c.getResources() == null || c.getResources().getLimits() == null ? null
        : c.getResources().getLimits().get("cpu");
    return q == null ? 0 : Quantity.getAmountInBytes(q).movePointRight(3).longValue();
  }

  /** Waits until each named pod ({@code ns/name}) has the given CPU limit (millicores). */
  void awaitLimits(Map<String, Long> expected) {
    await("limits " + expected).atMost(CONVERGE).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
      Map<String, Long> now = new TreeMap<>();
      expected.keySet().forEach(key -> {
        String[] nsName = key.split("/", 2);
        now.put(key, cpuLimitMilli(nsName[0], nsName[1]));
      });
      assertThat(now).as("CPU limits (millicores) at the API server").isEqualTo(new TreeMap<>(expected));
    });
  }

  @Override
  public void close() {
    kubelet.close();
    api.close();
  }
}
