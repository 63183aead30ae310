package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/** Realistic objects for ingest tests: pods carry the status noise a real cluster has. */
final class TestObjects {
  private TestObjects() {}

  /** A Running Burstable pod of a Deployment's ReplicaSet, with IPs, probes, env and conditions. */
  static Pod pod(String namespace, String name, String node, String cpuRequest, String cpuLimit) {
    return new PodBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
          .withLabels(Map.of("app", "web", "pod-template-hash", "7c9d"))
          .withAnnotations(Map.of("kubectl.kubernetes.io/restartedAt", "2026-01-01T00:00:00Z"))
          .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("web-7c9d")
            .withUid("rs-uid").withController(true).withBlockOwnerDeletion(true).endOwnerReference()
        .endMetadata()
        .withNewSpec().withNodeName(node).withServiceAccountName("default")
          .addNewContainer().withName("app").withImage("registry.example/web:1.2.3")
            .withArgs("--port=8080").addNewEnv().withName("MODE").withValue("prod").endEnv()
            .addNewPort().withContainerPort(8080).endPort()
            .withNewReadinessProbe().withNewHttpGet().withPath("/ready").withNewPort(8080).endHttpGet().endReadinessProbe()
            .withNewResources()
              .addToRequests("cpu", new Quantity(cpuRequest)).addToRequests("memory", new Quantity("256Mi"))
              .addToLimits("cpu", new Quantity(cpuLimit)).addToLimits("memory", new Quantity("256Mi"))
            .endResources()
          .endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").withPodIP("10.0.0.7")
          .withHostIP("192.168.0.1").withStartTime("2026-01-01T00:00:00Z")
          .addNewCondition().withType("Ready").withStatus("True")
            .withLastTransitionTime("2026-01-01T00:00:05Z").endCondition()
          .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0)
            .withImage("registry.example/web:1.2.3").withImageID("sha256:abc").endContainerStatus()
        .endStatus()
        .build();
  }

  static Node node(String name, String allocatableCpu) {
    return new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity(allocatableCpu), "memory", new Quantity("64Gi")))
        .endStatus().build();
  }

  static Namespace namespace(String name, Map<String, String> labels) {
    return new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
  }

  static LimitRange limitRange(String namespace, String name, String maxCpu) {
    return new LimitRangeBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity(maxCpu)))
        .endLimit().endSpec().build();
  }

  /** A VPA on Deployment {@code web}, controlling requests and limits unless {@code requestsOnly}. */
  static GenericKubernetesResource vpa(String namespace, String name, boolean requestsOnly) {
    Map<String, Object> spec = requestsOnly
        ? Map.of("targetRef", Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", "web"),
            "resourcePolicy", Map.of("containerPolicies",
                List.of(Map.of("containerName", "*", "controlledValues", "RequestsOnly"))))
        : Map.of("targetRef", Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", "web"));
    return new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.k8s.io/v1")
        .withKind("VerticalPodAutoscaler").withNewMetadata().withNamespace(namespace).withName(name)
        .endMetadata().withAdditionalProperties(Map.of("spec", spec)).build();
  }

  static GenericKubernetesResource headroomConfig(String name, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder().withApiVersion("kube-headroom.dev/v1alpha1")
        .withKind("HeadroomConfig").withNewMetadata().withName(name).endMetadata()
        .withAdditionalProperties(Map.of("spec", spec)).build();
  }

  /**
   * A JSON merge patch of {@code spec} (as {@code kubectl patch --type=merge}): no resourceVersion
   * precondition, so it does not conflict with Headroom's own status writes.
   */
  static String specPatch(Map<String, Object> spec) {
    return io.fabric8.kubernetes.client.utils.Serialization.asJson(Map.of("spec", spec));
  }
}
