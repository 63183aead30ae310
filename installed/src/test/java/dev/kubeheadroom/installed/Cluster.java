package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test cluster: an API server ({@link ClusterBackend}: the double or a real one) and the
 * tenants' objects a test puts in it. The tenants act through the admin client, so their pod
 * CREATEs go through admission (the webhook) as a controller's or a user's would. On a server
 * other classes share, {@link #close} removes what the tenants created.
 */
final class Cluster implements AutoCloseable {
  static final Duration CONVERGE = Duration.ofSeconds(60);
  static final String CONTAINER = "app";

  final ClusterBackend backend;
  private final Set<String> nodes = ConcurrentHashMap.newKeySet();
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();

  private Cluster(ClusterBackend backend) {
    this.backend = backend;
  }

  /** A fresh API double and its kubelet. */
  static Cluster start() {
    return new Cluster(DoubleBackend.start());
  }

  /** The JVM's real kube-apiserver (skips where its binaries are missing; fails on CI). */
  static Cluster real() {
    return new Cluster(RealBackend.shared());
  }

  /** The real node's cluster: its kube-apiserver and real kubelet ({@code tools/real-node/start}). */
  static Cluster realNode(dev.kubeheadroom.kubereal.RealNode node) {
    return new Cluster(new RealNodeBackend(node));
  }

  /** A real kube-apiserver of its own (a second cluster), stopped on {@link #close}. */
  static Cluster realOwn() {
    return new Cluster(RealBackend.fresh());
  }

  KubernetesClient admin() {
    return backend.admin();
  }

  /** The API double, for what only it can do (faults, its journal's bodies). */
  ApiServerDouble api() {
    if (backend instanceof DoubleBackend d) {
      return d.api();
    }
    throw new IllegalStateException("only the API double injects faults; this cluster is " + backend);
  }

  /** A namespace labelled {@code kube-headroom.dev/mode=managed}. */
  void managedNamespace(String name) {
    namespaces.add(name);
    // (created or, on a shared server where a rerun of the class finds it, labelled again)
    admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build())
        .createOr(NonDeletingOperation::update);
  }

  /** A Linux node with {@code cpu} allocatable (the scheduler's view the policy divides). */
  void node(String name, String cpu) {
    nodes.add(name);
    backend.registerNode(name, cpu, "64Gi");
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

  /** The pod as the API server has it now. */
  Optional<Pod> pod(String namespace, String name) {
    return Optional.ofNullable(admin().pods().inNamespace(namespace).withName(name).get());
  }

  /** Every request the API server answered so far. */
  List<ApiCall> calls() {
    return backend.calls();
  }

  /** The pod's CPU limit in millicores at the API server; 0 when it has none or does not exist. */
  long cpuLimitMilli(String namespace, String name) {
    return pod(namespace, name).map(Cluster::limitMilli).orElse(0L);
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

  /**
   * Closes a server of its own; on a shared one, removes what the tenants left so the next
   * class's release sees none of it: their Jobs, pods (force-deleted: no kubelet confirms) and
   * Events, their namespaces' managed label (a deleted namespace would stay Terminating without the
   * namespace controller: it is kept, emptied and unmanaged), their nodes, and the cluster's
   * HeadroomConfig singleton.
   */
  @Override
  public void close() {
    if (backend.sharedByClasses()) {
      for (String ns : namespaces) {
        admin().batch().v1().jobs().inNamespace(ns).delete();
        admin().pods().inNamespace(ns).withGracePeriod(0).delete();
        admin().v1().events().inNamespace(ns).delete(); // a rerun must not find this run's Events
        admin().namespaces().withName(ns).edit(n -> new NamespaceBuilder(n).editMetadata()
            .removeFromLabels(HeadroomKeys.MODE_LABEL).endMetadata().build());
      }
      nodes.forEach(node -> admin().nodes().withName(node).delete());
      admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName(HeadroomKeys.CONFIG_NAME).delete();
    }
    backend.close();
  }

  @Override
  public String toString() {
    return backend.toString();
  }
}
