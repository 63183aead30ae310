package dev.kubeheadroom.kubereal;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

/** A pod for the real node: one busy-loop container ({@link RealNode#BUSY_LOOP_IMAGE}). */
public final class BusyLoopPod {
  private BusyLoopPod() {}

  /**
   * The pod, bound to {@link RealNode#NODE} (no scheduler runs), on the host's network (the node's
   * CNI bridge exists only so the runtime reports its network ready), with no ServiceAccount token
   * (no controller-manager publishes the root CA a projected token volume needs), and never pulled.
   */
  public static Pod of(String namespace, String name, String cpuRequest, String cpuLimit) {
    Pod pod = requesting(namespace, name, cpuRequest);
    pod.getSpec().getContainers().get(0).getResources().getLimits().put("cpu", new Quantity(cpuLimit));
    return pod;
  }

  /** As {@link #of} with no limit: what a managed pod is created as, before the webhook's birth limit. */
  public static Pod requesting(String namespace, String name, String cpuRequest) {
    return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec().withNodeName(RealNode.NODE).withHostNetwork(true)
        .withAutomountServiceAccountToken(false).withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("loop").withImage(RealNode.BUSY_LOOP_IMAGE)
        .withImagePullPolicy("Never")
        .withNewResources().addToRequests("cpu", new Quantity(cpuRequest)).withLimits(new java.util.HashMap<>())
        .endResources()
        .endContainer().endSpec().build();
  }

  /** The runtime's id of the pod's first container ({@code containerd://<id>} without the scheme). */
  public static String containerId(Pod pod) {
    String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
    return id.substring(id.indexOf("://") + 3);
  }
}
