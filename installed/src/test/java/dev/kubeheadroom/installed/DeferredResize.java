package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubereal.BusyLoopPod;
import dev.kubeheadroom.kubereal.CpuCgroup;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A resize the real kubelet defers, with Headroom running: a sleeping hog takes most of the node's
 * CPU requests, then another actor (as a VPA would: its own field manager, requests and limits)
 * raises the incumbent's request beyond what is free. The API server admits it (it checks requests
 * against allocatable, not against other pods); the kubelet answers {@code PodResizePending}
 * reason {@code Deferred}, which holds Headroom's own limit resize of the pod too (the kubelet
 * actuates a pod's desired resources as a whole). When the hog leaves, the kubelet applies it all.
 *
 * @param condition the kubelet's {@code reason: message}
 * @param deferredCounted ingest's {@code headroom_resizes_total{result="deferred"}} (the highest of its replicas)
 * @param resizesWhileDeferred resizes of the pod the stages sent over {@link #WATCH} while deferred
 */
record DeferredResize(CpuCgroup.Quota quotaBefore, String condition, CpuCgroup.Quota quotaWhileDeferred,
    long deferredCounted, long resizesWhileDeferred, String annotation, long limitAfterMilli,
    CpuCgroup.Quota quotaAfter, int restarts) {

  /** How long the deferral is watched: over the config's debounce and backoff of a retry storm. */
  static final Duration WATCH = Duration.ofSeconds(20);
  private static final PatchContext AS_VPA = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
      .withFieldManager("vpa-updater").withForce(true).build();

  /** @param allocatableMilli the node's: the limit the incumbent has alone, where this starts */
  static DeferredResize run(Cluster cluster, Installation installation, CpuCgroup cgroup, String ns, String pod,
      long allocatableMilli) throws Exception {
    long alone = KubeletResizeTrace.settle("the incumbent alone on the node", cluster, cgroup, ns, pod,
        limit -> limit == allocatableMilli);
    Pod hog = BusyLoopPod.requesting(ns, "hog", "1400m");
    hog.getSpec().getContainers().get(0).setCommand(List.of("/bin/busybox", "sleep", "3600"));
    cluster.admin().pods().inNamespace(ns).resource(hog).create();
    KubeletResizeTrace.settle("the incumbent shrunk beside the hog", cluster, cgroup, ns, pod, limit -> limit < alone);
    CpuCgroup.Quota before = cgroup.quota();

    // 800m of requests: within allocatable (2000m), so admitted; 1400m + 800m do not fit beside the hog
    Pod body = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata().withName(pod).withNamespace(ns)
        .endMetadata().withNewSpec().addNewContainer().withName("loop").withNewResources()
        .addToRequests("cpu", new Quantity("800m")).addToLimits("cpu", new Quantity("1600m")).endResources()
        .endContainer().endSpec().build();
    cluster.admin().pods().inNamespace(ns).resource(body).subresource("resize").patch(AS_VPA);
    Pod deferred = await("PodResizePending Deferred").atMost(Cluster.CONVERGE).until(() -> cluster.pod(ns, pod)
        .orElseThrow(), p -> pending(p).filter(c -> "Deferred".equals(c.getReason())).isPresent());
    PodCondition condition = pending(deferred).orElseThrow();
    Instant watchFrom = Instant.now();
    Thread.sleep(WATCH.toMillis());
    CpuCgroup.Quota whileDeferred = cgroup.quota();
    long resizes = cluster.calls().stream().filter(c -> c.isResizeOf(ns, pod) && !c.at().isBefore(watchFrom)
        && c.user().startsWith("system:serviceaccount:")).count();
    long counted = installation.processes().stream().filter(p -> p.podName().startsWith(installation.fullname() + "-ingest"))
        .mapToLong(p -> deferredCount(p, installation.scraperToken())).max().orElse(0);
    Pod now = cluster.pod(ns, pod).orElseThrow();
    String annotation = now.getMetadata().getAnnotations().get(dev.kubeheadroom.schemas.HeadroomKeys.STATUS_ANNOTATION);
    boolean stillDeferred = pending(now).isPresent();

    cluster.admin().pods().inNamespace(ns).withName("hog").withGracePeriod(0).delete();
    Pod applied = await("the deferred resize applied").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
        .until(() -> cluster.pod(ns, pod).orElseThrow(), p -> pending(p).isEmpty()
            && KubeletResizeTrace.limitMilli(p) == KubeletResizeTrace.statusLimitMilli(p)
            && cgroup.quota().millicores() == KubeletResizeTrace.limitMilli(p));
    if (!stillDeferred) {
      throw new AssertionError("the kubelet stopped deferring before the hog left: " + now.getStatus().getConditions());
    }
    return new DeferredResize(before, condition.getReason() + ": " + condition.getMessage(), whileDeferred, counted,
        resizes, annotation, KubeletResizeTrace.limitMilli(applied), cgroup.quota(),
        applied.getStatus().getContainerStatuses().get(0).getRestartCount());
  }

  private static Optional<PodCondition> pending(Pod p) {
    return p.getStatus().getConditions().stream().filter(c -> "PodResizePending".equals(c.getType())).findFirst();
  }

  private static long deferredCount(StageProcess ingest, String token) {
    try {
      String scrape = MetricsScrape.of(ingest, !ingest.plan().command().contains("--metrics-secure=false"), token);
      return scrape.lines().filter(l -> l.startsWith("headroom_resizes_total{") && l.contains("result=\"deferred\""))
          .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    } catch (Exception e) {
      return 0; // a replica that does not answer counts nothing
    }
  }

  @Override
  public String toString() {
    return ("deferred resize: quota %d before; kubelet %s; quota %d after %d s deferred, %d resizes sent meanwhile, "
        + "ingest counted %d deferred; annotation %s; after the hog left: limit %dm, quota %d, restarts %d").formatted(
        quotaBefore.quotaMicros(), condition, quotaWhileDeferred.quotaMicros(), WATCH.toSeconds(), resizesWhileDeferred,
        deferredCounted, annotation, limitAfterMilli, quotaAfter.quotaMicros(), restarts);
  }
}
