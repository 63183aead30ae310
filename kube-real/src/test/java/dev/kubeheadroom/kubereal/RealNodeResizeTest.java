package dev.kubeheadroom.kubereal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import dev.kubeheadroom.testkit.PrometheusServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real kubelet (containerd, runc, cgroupfs): a busy-loop container's CFS quota is the limit
 * the API shows, a limit resize sent as the actuator sends it (server-side apply on
 * {@code pods/resize}) is applied in place, and the quota follows. Prints the measured times and
 * throttling as {@code MEASURED} lines (docs/benchmarks.md, "The kubelet's resize latency").
 */
@Tag("real-node")
class RealNodeResizeTest {
  private static final String NS = "real-node";
  /** Long enough for dozens of 100 ms CFS periods under a shared machine's load. */
  private static final Duration THROTTLE_WINDOW = Duration.ofSeconds(5);
  private static RealNode node;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    node = RealNode.start();
    client = node.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata()
        .build()).serverSideApply();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  void theCfsQuotaIsTheLimitAndFollowsAnInPlaceResize() {
    client.resource(BusyLoopPod.of(NS, "busy", "200m", "400m")).create();
    Pod running = awaitPod("busy", p -> status(p) != null && status(p).getState().getRunning() != null);
    String id = BusyLoopPod.containerId(running);
    CpuCgroup cgroup = await().atMost(Duration.ofSeconds(30))
        .until(() -> CpuCgroup.ofContainer(id), java.util.Optional::isPresent).orElseThrow();

    assertThat(cgroup.quota().millicores())
        .isEqualTo(new Quantity("400m").getNumericalAmount().movePointRight(3).longValueExact())
        .isEqualTo(millicores(status(running).getResources().getLimits().get("cpu")));
    System.out.println("MEASURED real node: limit 400m -> " + cgroup.quota());
    CpuCgroup.Stat small = throttling(cgroup);
    System.out.println("MEASURED real node: at 400m over " + THROTTLE_WINDOW.toSeconds() + " s " + small
        + " = " + millicoresUsed(small) + "m used");

    ResizeTiming grow = ResizeTiming.measure(client, cgroup, NS, "busy", "1200m");
    System.out.println("MEASURED real node: " + grow);
    Pod grown = client.pods().inNamespace(NS).withName("busy").get();
    assertThat(status(grown).getRestartCount()).isZero();
    assertThat(BusyLoopPod.containerId(grown)).isEqualTo(id);
    assertThat(cgroup.quota().millicores()).isEqualTo(1200);
    CpuCgroup.Stat large = throttling(cgroup);
    System.out.println("MEASURED real node: at 1200m over " + THROTTLE_WINDOW.toSeconds() + " s " + large
        + " = " + millicoresUsed(large) + "m used");

    // The quota caps what the loop used at 400m (5% for the edges of the window); one thread
    // uses at most one core, so a 1.2-core quota never runs out. Whether the loop even reached
    // 400m depends on the machine's load (its 200m request is a low weight): where it did, it
    // was throttled.
    assertThat(millicoresUsed(small)).isLessThanOrEqualTo(420);
    assertThat(large.throttledPeriods()).isZero();
    if (millicoresUsed(small) >= 360) {
      assertThat(small.throttledPeriods()).isPositive();
    }

    ResizeTiming shrink = ResizeTiming.measure(client, cgroup, NS, "busy", "400m");
    System.out.println("MEASURED real node: " + shrink);
    Pod shrunk = client.pods().inNamespace(NS).withName("busy").get();
    assertThat(status(shrunk).getRestartCount()).isZero();
    assertThat(BusyLoopPod.containerId(shrunk)).isEqualTo(id);
    assertThat(cgroup.quota().millicores()).isEqualTo(400);
  }

  @Test
  void theKubeletsCadvisorReportsTheCgroupsQuotaAndThrottling() {
    client.resource(BusyLoopPod.of(NS, "scraped", "200m", "400m")).create();
    Pod running = awaitPod("scraped", p -> status(p) != null && status(p).getState().getRunning() != null);
    String id = BusyLoopPod.containerId(running);
    CpuCgroup cgroup = await().atMost(Duration.ofSeconds(30))
        .until(() -> CpuCgroup.ofContainer(id), java.util.Optional::isPresent).orElseThrow();
    CpuCgroup.Stat before = cgroup.stat();

    // cAdvisor samples the cgroup every housekeeping interval (~10-15 s): wait for a sample
    // taken after `before`, which then lies between `before` and a read after the scrape.
    CadvisorMetrics scrape = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
        .until(() -> new CadvisorMetrics(node.kubeletGet("/metrics/cadvisor")),
            m -> m.value("container_cpu_cfs_periods_total", NS, "scraped", "loop").orElse(0) > before.periods());
    CpuCgroup.Stat after = cgroup.stat();
    long periods = scrape.value("container_cpu_cfs_periods_total", NS, "scraped", "loop").orElseThrow();
    long throttled = scrape.value("container_cpu_cfs_throttled_periods_total", NS, "scraped", "loop").orElseThrow();
    System.out.println("MEASURED real node: cAdvisor periods " + periods + ", throttled " + throttled
        + "; the cgroup's before " + before + ", after " + after);

    assertThat(scrape.value("container_spec_cpu_quota", NS, "scraped", "loop")).hasValue(cgroup.quota().quotaMicros());
    assertThat(periods).isBetween(before.periods(), after.periods());
    assertThat(throttled).isBetween(before.throttledPeriods(), after.throttledPeriods());
  }

  @Test
  void prometheusScrapesTheThrottlingTheCgroupCounts(@TempDir Path work) throws Exception {
    try (PrometheusServer prometheus = PrometheusServer.start(work, Duration.ofSeconds(2), node.cadvisorScrapeJob())) {
      client.resource(BusyLoopPod.of(NS, "prom", "200m", "400m")).create();
      Pod running = awaitPod("prom", p -> status(p) != null && status(p).getState().getRunning() != null);
      String id = BusyLoopPod.containerId(running);
      CpuCgroup cgroup = await().atMost(Duration.ofSeconds(30))
          .until(() -> CpuCgroup.ofContainer(id), java.util.Optional::isPresent).orElseThrow();
      CpuCgroup.Stat before = cgroup.stat();
      String series = "{namespace=\"" + NS + "\",pod=\"prom\",container=\"loop\"}";

      // A sample cAdvisor took after `before`, scraped: it lies between `before` and a read after.
      long periods = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
          .until(() -> (long) prometheus.query("container_cpu_cfs_periods_total" + series).orElse(-1),
              v -> v > before.periods());
      long throttled = (long) prometheus.query("container_cpu_cfs_throttled_periods_total" + series).orElseThrow();
      CpuCgroup.Stat after = cgroup.stat();
      System.out.println("MEASURED real node: Prometheus periods " + periods + ", throttled " + throttled
          + "; the cgroup's before " + before + ", after " + after);

      assertThat(prometheus.query("container_spec_cpu_quota" + series)).hasValue(cgroup.quota().quotaMicros());
      assertThat(periods).isBetween(before.periods(), after.periods());
      assertThat(throttled).isBetween(before.throttledPeriods(), after.throttledPeriods());
    }
  }

  @Test
  void aLimitAboveTheNodesCapacityIsAppliedAsIs() {
    Pod sleeper = BusyLoopPod.of(NS, "unbounded", "200m", "400m");
    sleeper.getSpec().getContainers().get(0).setCommand(java.util.List.of("/bin/busybox", "sleep", "3600"));
    client.resource(sleeper).create();
    Pod running = awaitPod("unbounded", p -> status(p) != null && status(p).getState().getRunning() != null);
    String id = BusyLoopPod.containerId(running);
    CpuCgroup cgroup = await().atMost(Duration.ofSeconds(30))
        .until(() -> CpuCgroup.ofContainer(id), java.util.Optional::isPresent).orElseThrow();

    // The API server checks a resize's requests against the node's allocatable, never its limits,
    // and the kubelet admits on requests too: a limit-only resize is neither Deferred nor
    // Infeasible, whatever the node's size (this one has 2 cores).
    ResizeTiming wide = ResizeTiming.measure(client, cgroup, NS, "unbounded", "64");
    System.out.println("MEASURED real node: " + wide);
    assertThat(wide.conditions()).noneMatch(c -> c.startsWith("PodResizePending"));
    assertThat(cgroup.quota()).isEqualTo(new CpuCgroup.Quota(6_400_000, 100_000));
    assertThat(status(client.pods().inNamespace(NS).withName("unbounded").get()).getRestartCount()).isZero();
  }

  @Test
  void aResizeTheNodeHasNoRoomForIsDeferredUntilRoomIsMade() {
    long allocatable = millicores(client.nodes().withName(RealNode.NODE).get().getStatus()
        .getAllocatable().get("cpu"));
    // Whatever the other tests left running (each test's pods stay until the node stops).
    long used = client.pods().inNamespace(NS).list().getItems().stream()
        .filter(p -> !"Succeeded".equals(p.getStatus().getPhase()) && !"Failed".equals(p.getStatus().getPhase()))
        .mapToLong(p -> millicores(p.getSpec().getContainers().get(0).getResources().getRequests().get("cpu")))
        .sum();
    // A sleeping pod takes all but 400m of what is free: the 200m pod still fits beside it, and
    // 200m stays free, less than the 600m more the resize below asks for.
    long hogMilli = allocatable - used - 400;
    Pod hog = BusyLoopPod.of(NS, "hog", hogMilli + "m", hogMilli + "m");
    hog.getSpec().getContainers().get(0).setCommand(java.util.List.of("/bin/busybox", "sleep", "3600"));
    client.resource(hog).create();
    client.resource(BusyLoopPod.of(NS, "wants-more", "200m", "400m")).create();
    awaitPod("hog", p -> status(p) != null && status(p).getState().getRunning() != null);
    awaitPod("wants-more", p -> status(p) != null && status(p).getState().getRunning() != null);

    // 800m of requests: within the node's allocatable, so the API server admits it (it refuses
    // only requests above allocatable, 403 NodeCapacity); 600m more than the 200m free, so the
    // kubelet defers it.
    Pod body = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata()
        .withName("wants-more").withNamespace(NS).endMetadata().withNewSpec().addNewContainer()
        .withName("loop").withNewResources().addToRequests("cpu", new Quantity("800m"))
        .addToLimits("cpu", new Quantity("800m")).endResources().endContainer().endSpec().build();
    client.pods().inNamespace(NS).resource(body).subresource("resize").patch(new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager("real-node-test").withForce(true).build());
    Pod deferred = awaitPod("wants-more", p -> p.getStatus().getConditions().stream()
        .anyMatch(c -> c.getType().equals("PodResizePending") && "Deferred".equals(c.getReason())));
    System.out.println("MEASURED real node: deferred resize condition " + deferred.getStatus().getConditions()
        .stream().filter(c -> c.getType().equals("PodResizePending")).findFirst().orElseThrow());
    assertThat(millicores(status(deferred).getResources().getLimits().get("cpu"))).isEqualTo(400);

    client.pods().inNamespace(NS).withName("hog").withGracePeriod(0).delete();
    Pod resized = awaitPod("wants-more", p -> millicores(status(p).getResources().getLimits().get("cpu")) == 800);
    assertThat(resized.getStatus().getConditions()).noneMatch(c -> c.getType().startsWith("PodResize"));
    assertThat(status(resized).getRestartCount()).isZero();
  }

  private static CpuCgroup.Stat throttling(CpuCgroup cgroup) {
    CpuCgroup.Stat before = cgroup.stat();
    try {
      Thread.sleep(THROTTLE_WINDOW.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return cgroup.stat().minus(before);
  }

  private static long millicoresUsed(CpuCgroup.Stat window) {
    return window.usageMicros() / THROTTLE_WINDOW.toMillis();
  }

  private static long millicores(Quantity q) {
    return q.getNumericalAmount().movePointRight(3).longValueExact();
  }

  private static ContainerStatus status(Pod p) {
    return p.getStatus() == null || p.getStatus().getContainerStatuses() == null
        || p.getStatus().getContainerStatuses().isEmpty() ? null : p.getStatus().getContainerStatuses().get(0);
  }

  private static Pod awaitPod(String name, Predicate<Pod> until) {
    return await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .until(() -> client.pods().inNamespace(NS).withName(name).get(), p -> p != null && until.test(p));
  }
}
