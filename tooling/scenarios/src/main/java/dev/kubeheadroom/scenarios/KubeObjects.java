package dev.kubeheadroom.scenarios;

import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.UUID;

/**
 * The Kubernetes objects of a scenario, built with fabric8 builders the way the API server would
 * show them (compare {@code ../shared/tools/contract-example.jsonl}). Pods are Burstable: one
 * {@code app} container with CPU and memory requests, no limits, and an in-place resize policy
 * ({@code NotRequired}) for both resources.
 */
final class KubeObjects {
  static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";
  /** Images pulled (and pods "run") here do nothing: the scenario is about bookings. */
  static final String APP_CONTAINER = "app";

  private KubeObjects() {}

  /** A name-based uid: the same seed and name always give the same uid. */
  static String uid(long seed, String kind, String name) {
    return UUID.nameUUIDFromBytes((seed + "/" + kind + "/" + name).getBytes(StandardCharsets.UTF_8)).toString();
  }

  static Namespace namespace(long seed, String name, boolean managed, long resourceVersion) {
    NamespaceBuilder b = new NamespaceBuilder()
        .withNewMetadata()
          .withName(name)
          .withUid(uid(seed, "Namespace", name))
          .addToLabels("kubernetes.io/metadata.name", name)
          .withResourceVersion(Long.toString(resourceVersion))
        .endMetadata()
        .withNewSpec().addToFinalizers("kubernetes").endSpec()
        .withNewStatus().withPhase("Active").endStatus();
    if (managed) {
      b.editMetadata().addToLabels(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED).endMetadata();
    }
    return b.build();
  }

  static Node node(long seed, NodePlan plan, long resourceVersion) {
    Map<String, Quantity> capacity = Map.of(
        "cpu", cpu(plan.cpuMilli()), "memory", memory(plan.memoryMib()), "pods", new Quantity("110"));
    return new NodeBuilder()
        .withNewMetadata()
          .withName(plan.name())
          .withUid(uid(seed, "Node", plan.name()))
          .addToLabels("kubernetes.io/os", "linux")
          .addToLabels("kubernetes.io/hostname", plan.name())
          .withResourceVersion(Long.toString(resourceVersion))
        .endMetadata()
        .withNewStatus()
          .withCapacity(capacity)
          .withAllocatable(capacity)
          .addNewCondition().withType("Ready").withStatus("True").endCondition()
        .endStatus()
        .build();
  }

  /**
   * The pod as its watch shows it.
   *
   * @param node null while unbound; the bind sets {@code spec.nodeName}
   * @param phase Pending, Running, Succeeded or Failed
   */
  static Pod pod(long seed, String namespace, PodPlan plan, Instant created, String node, String phase,
      long resourceVersion) {
    boolean job = PodPlan.JOB.equals(plan.ownerKind());
    String owner = plan.ownerName();
    PodBuilder b = new PodBuilder()
        .withNewMetadata()
          .withName(plan.name())
          .withNamespace(namespace)
          .withUid(uid(seed, "Pod", namespace + "/" + plan.name()))
          .addToLabels("app", owner)
          .withCreationTimestamp(DateTimeFormatter.ISO_INSTANT.format(created))
          .addNewOwnerReference()
            .withApiVersion(job ? "batch/v1" : "apps/v1")
            .withKind(plan.ownerKind())
            .withName(owner)
            .withUid(uid(seed, plan.ownerKind(), namespace + "/" + owner))
            .withController(true)
            .withBlockOwnerDeletion(true)
          .endOwnerReference()
          .withResourceVersion(Long.toString(resourceVersion))
        .endMetadata()
        .withNewSpec()
          .addNewContainer()
            .withName(APP_CONTAINER)
            .withImage(PAUSE_IMAGE)
            .withNewResources()
              .addToRequests("cpu", cpu(plan.cpuMilli()))
              .addToRequests("memory", memory(plan.memoryMib()))
            .endResources()
            .addNewResizePolicy().withResourceName("cpu").withRestartPolicy("NotRequired").endResizePolicy()
            .addNewResizePolicy().withResourceName("memory").withRestartPolicy("NotRequired").endResizePolicy()
            .withImagePullPolicy("IfNotPresent")
            .withTerminationMessagePolicy("File")
          .endContainer()
          .withRestartPolicy(job ? "Never" : "Always")
          .withSchedulerName("default-scheduler")
          .withServiceAccountName("default")
          .withTerminationGracePeriodSeconds(30L)
          .withNodeName(node)
        .endSpec()
        .withNewStatus()
          .withPhase(phase)
          .withQosClass("Burstable")
        .endStatus();
    if (node != null) {
      b.editStatus().addToConditions(new PodConditionBuilder()
          .withType("PodScheduled").withStatus("True").build()).endStatus();
    }
    return b.build();
  }

  /** The HeadroomConfig singleton with every field at its default except {@code dryRun}. */
  static GenericKubernetesResource headroomConfig(long seed, boolean dryRun, long resourceVersion) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION)
        .withKind("HeadroomConfig")
        .withNewMetadata()
          .withName(HeadroomKeys.CONFIG_NAME)
          .withUid(uid(seed, "HeadroomConfig", HeadroomKeys.CONFIG_NAME))
          .withGeneration(1L)
          .withResourceVersion(Long.toString(resourceVersion))
        .endMetadata()
        .addToAdditionalProperties("spec", Map.of("dryRun", dryRun))
        .build();
  }

  /** {@code 4} for 4000m, {@code 3152m} otherwise (the API server's canonical form). */
  static Quantity cpu(long milli) {
    return new Quantity(milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m");
  }

  static Quantity memory(long mib) {
    return new Quantity(mib % 1024 == 0 ? (mib / 1024) + "Gi" : mib + "Mi");
  }
}
