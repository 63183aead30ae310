package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.Map;

/** Pods for tests, built the way a workload's manifest would declare them. */
final class TestPods {
  static final String NS = "team-a";

  private TestPods() {}

  /** A Burstable pod: one container "app" with the given CPU request and limit (null: none). */
  static Pod burstable(String name, String node, String cpuRequest, String cpuLimit) {
    Map<String, Quantity> requests = new LinkedHashMap<>();
    requests.put("cpu", new Quantity(cpuRequest));
    requests.put("memory", new Quantity("256Mi"));
    Map<String, Quantity> limits = new LinkedHashMap<>();
    if (cpuLimit != null) {
      limits.put("cpu", new Quantity(cpuLimit));
    }
    limits.put("memory", new Quantity("256Mi"));
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName(node)
        .addToContainers(new ContainerBuilder().withName("app").withImage("registry.example/app:1")
            .withNewResources().withRequests(requests).withLimits(limits).endResources().build())
        .endSpec().build();
  }

  /** A pod without any request or limit. */
  static Pod bestEffort(String name, String node) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName(node)
        .addToContainers(new ContainerBuilder().withName("app").withImage("registry.example/app:1").build())
        .endSpec().build();
  }

  /** The body Headroom sends: name, namespace and one container's CPU limit, nothing else. */
  static Pod cpuLimitOnly(String name, String container, String cpuLimit) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec()
        .addToContainers(new ContainerBuilder().withName(container)
            .withNewResources().addToLimits("cpu", new Quantity(cpuLimit)).endResources().build())
        .endSpec().build();
  }

  /** Server-side apply as Headroom's actuator does it. */
  static PatchContext headroomApply() {
    return new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager("headroom").withForce(true).build();
  }
}
