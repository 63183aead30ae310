package dev.kubeheadroom.kubereal;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One limit resize on the real node and when each layer showed it, in ms from the request: the
 * API server's 200, the kubelet's container status ({@code resources.limits.cpu}), and the CFS
 * quota in the container's cgroup.
 *
 * @param conditions the pod's resize conditions seen meanwhile ({@code type/reason})
 */
record ResizeTiming(String to, long apiMillis, long statusMillis, long cgroupMillis,
    Set<String> conditions) {

  /** As the actuator sends it (ResizePatcher): server-side apply, field manager headroom, forced. */
  private static final PatchContext APPLY = new PatchContext.Builder()
      .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager("headroom").withForce(true).build();
  private static final long TIMEOUT_MILLIS = 120_000;

  static ResizeTiming measure(KubernetesClient client, CpuCgroup cgroup, String ns, String name,
      String limit) {
    Pod current = client.pods().inNamespace(ns).withName(name).get();
    Pod body = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata()
        .withName(name).withNamespace(ns).withUid(current.getMetadata().getUid()).endMetadata()
        .withNewSpec().addNewContainer().withName(current.getSpec().getContainers().get(0).getName())
        .withNewResources().addToLimits("cpu", new Quantity(limit)).endResources().endContainer()
        .endSpec().build();
    long target = new Quantity(limit).getNumericalAmount().movePointRight(3).longValueExact();
    long start = System.nanoTime();
    client.pods().inNamespace(ns).resource(body).subresource("resize").patch(APPLY);
    long api = millisSince(start);
    long status = -1;
    long quota = -1;
    Set<String> conditions = new LinkedHashSet<>();
    long nextRead = 0;
    while (status < 0 || quota < 0) {
      long now = millisSince(start);
      if (now > TIMEOUT_MILLIS) {
        throw new AssertionError("resize of " + ns + "/" + name + " to " + limit + " not seen within "
            + TIMEOUT_MILLIS + " ms: status at " + status + ", cgroup at " + quota + ", conditions " + conditions);
      }
      if (quota < 0 && cgroup.quota().millicores() == target) {
        quota = now;
      }
      if (status < 0 && now >= nextRead) {
        Pod pod = client.pods().inNamespace(ns).withName(name).get();
        for (PodCondition c : pod.getStatus().getConditions()) {
          if (c.getType().startsWith("PodResize")) {
            conditions.add(c.getType() + "/" + c.getReason());
          }
        }
        ContainerStatus cs = pod.getStatus().getContainerStatuses().get(0);
        Quantity shown = cs.getResources() == null ? null : cs.getResources().getLimits().get("cpu");
        if (shown != null && shown.getNumericalAmount().movePointRight(3).longValueExact() == target) {
          status = millisSince(start);
        }
        nextRead = millisSince(start) + 25;
      }
      sleep();
    }
    return new ResizeTiming(limit, api, status, quota, conditions);
  }

  @Override
  public String toString() {
    return "resize to " + to + ": API 200 at " + apiMillis + " ms, kubelet status at " + statusMillis
        + " ms, cgroup quota at " + cgroupMillis + " ms, conditions seen " + conditions;
  }

  private static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static void sleep() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
