package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubereal.BusyLoopPod;
import dev.kubeheadroom.kubereal.CpuCgroup;
import dev.kubeheadroom.kubereal.RealNode;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Headroom as the chart installs it ({@link Installation}: every replica its own JVM, as its
 * ServiceAccount, the webhook called by the API server) on the real node's cluster
 * ({@link RealNode}: a real kubelet, containerd and runc): dry run, the webhook's birth limit, a
 * neighbour shrinking the incumbent and the container's CFS quota following, throttling seen by
 * the cgroup, cAdvisor and a real Prometheus, {@code headroom explain --prometheus} on that data,
 * and a resize the kubelet defers. In order: each test builds on what the previous left. Prints
 * the figures as {@code MEASURED} lines (docs/benchmarks.md, "The kubelet's resize latency").
 */
@Tag("real-node")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChartOnRealNodeTest {
  static final String NS = "team-real-node";
  private static final String RUN = "real-node";

  private RealNode node;
  private BrokerProcess broker;
  private Cluster cluster;
  private Installation installation;
  private CpuCgroup incumbent;
  private final List<KubeletResizeTrace> traces = new ArrayList<>();

  @BeforeAll
  void install() {
    node = RealNode.start(); // skips here where this machine cannot run a node
    cluster = Cluster.realNode(node);
    Path runDir = Path.of("target/runs").resolve(RUN).toAbsolutePath();
    InstalledTier.deleteRecursively(runDir);
    broker = BrokerProcess.start(runDir.resolve("kafka"));
    cluster.managedNamespace(NS);
    installation = Installation.install(cluster, runDir, Installation.RELEASE, Installation.NAMESPACE,
        Installation.testValues(broker.bootstrapServers()));
    System.out.printf("MEASURED %s: installed and every replica ready in %d s%n", RUN, installation.startup().toSeconds());
  }

  @AfterAll
  void uninstall() {
    for (AutoCloseable c : new AutoCloseable[] {installation, cluster, broker, node}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        System.out.println("closing " + c + ": " + e);
      }
    }
  }

  @Test
  @Order(1)
  void dryRunAnnotatesAndRecordsAnEventButNoResizeReachesTheKubelet() {
    // given the sample HeadroomConfig (dryRun: true), when a managed busy loop without a limit runs alone
    Pod dry = create(BusyLoopPod.requesting(NS, "dry", "200m"));
    CpuCgroup cgroup = cgroupOf(dry);
    CpuCgroup.Quota before = cgroup.quota();

    // then Headroom annotates what it would do and says so in an Event ...
    String status = await("the status annotation").atMost(Cluster.CONVERGE).until(() -> cluster.pod(NS, "dry")
        .map(p -> p.getMetadata().getAnnotations()).map(a -> a == null ? null : a.get(HeadroomKeys.STATUS_ANNOTATION))
        .orElse(null), a -> a != null);
    List<String> events = await("a dry-run Event").atMost(Cluster.CONVERGE).until(() -> Events.byHeadroomAbout(cluster.admin(), NS,
        "dry"), e -> e.stream().anyMatch(line -> line.contains("(dry-run) would adjust")));
    System.out.printf("MEASURED %s: dry run: annotation %s; Event %s; cfs quota %d before, %d after%n", RUN, status,
        events.stream().filter(line -> line.contains("dry-run")).findFirst().orElseThrow(), before.quotaMicros(),
        cgroup.quota().quotaMicros());
    assertThat(status).contains("\"dryRun\":true");

    // ... and no resize reached the API server, so none reached the kubelet: no quota (-1), as created
    assertThat(cluster.calls().stream().filter(c -> c.isResizeOf(NS, "dry"))).as("resize requests in dry run").isEmpty();
    assertThat(cgroup.quota()).isEqualTo(before);
    assertThat(before.quotaMicros()).isEqualTo(-1);
    cluster.admin().pods().inNamespace(NS).withName("dry").withGracePeriod(0).delete();
    await("the dry-run pod gone").atMost(Cluster.CONVERGE).until(() -> cluster.pod(NS, "dry").isEmpty());
  }

  @Test
  @Order(2)
  void theWebhooksBirthLimitIsTheQuotaThenTheActuatorGrowsItToTheNode() {
    InstalledTier.enforce(cluster);
    // the webhook learns the config from its topic: enforcing once a server-side dry-run create gets a limit
    await("the webhook seeding birth limits").atMost(Cluster.CONVERGE).pollInterval(Duration.ofSeconds(1))
        .until(() -> KubeletResizeTrace.limitMilli(cluster.admin().pods().inNamespace(NS)
            .resource(BusyLoopPod.requesting(NS, "probe", "200m")).dryRun().create()) > 0);
    Instant created = Instant.now();
    // the webhook seeds request x initialMultiplier (2): 400m, the quota the container starts with
    Pod born = cluster.admin().pods().inNamespace(NS).resource(BusyLoopPod.requesting(NS, "incumbent", "200m")).create();
    assertThat(KubeletResizeTrace.limitMilli(born)).as("the birth limit").isEqualTo(400);
    incumbent = cgroupOf(running("incumbent"));

    // then the actuator gives the lone pod the node (2 cores), and the quota follows
    traces.add(KubeletResizeTrace.trace("alone", cluster, broker.bootstrapServers(), incumbent, NS, "incumbent", created,
        limit -> limit > 400));
    assertThat(traces.get(0).fromMilli()).isEqualTo(400);
    assertThat(incumbent.quota().millicores()).isEqualTo(allocatableMilli());
  }

  @Test
  @Order(3)
  void aNeighbourShrinksTheIncumbentInPlaceAndTheQuotaFollowsBothWays() {
    String id = containerId("incumbent");
    long alone = incumbent.quota().millicores();
    for (int round = 1; round <= 2; round++) {
      Instant created = Instant.now();
      create(BusyLoopPod.requesting(NS, "neighbour", "200m"));
      traces.add(KubeletResizeTrace.trace("neighbour " + round + " created", cluster, broker.bootstrapServers(), incumbent,
          NS, "incumbent", created, limit -> limit < alone));
      Instant deleted = Instant.now();
      cluster.admin().pods().inNamespace(NS).withName("neighbour").withGracePeriod(0).delete();
      traces.add(KubeletResizeTrace.trace("neighbour " + round + " deleted", cluster, broker.bootstrapServers(), incumbent,
          NS, "incumbent", deleted, limit -> limit == alone));
      await("the neighbour gone").atMost(Cluster.CONVERGE).until(() -> cluster.pod(NS, "neighbour").isEmpty());
    }
    traces.forEach(t -> System.out.println("MEASURED " + RUN + ": " + t));
    System.out.printf("MEASURED %s: medians over %d resizes: decision -> API 200 %d ms, API 200 -> kubelet status %d ms, "
        + "API 200 -> cgroup %d ms%n", RUN, traces.size(),
        KubeletResizeTrace.median(traces.stream().map(KubeletResizeTrace::decisionToApiMillis).toList()),
        KubeletResizeTrace.median(traces.stream().map(KubeletResizeTrace::apiToStatusMillis).toList()),
        KubeletResizeTrace.median(traces.stream().map(KubeletResizeTrace::apiToCgroupMillis).toList()));

    Pod after = cluster.pod(NS, "incumbent").orElseThrow();
    assertThat(after.getStatus().getContainerStatuses().get(0).getRestartCount()).isZero();
    assertThat(containerId("incumbent")).isEqualTo(id);
    assertThat(traces).filteredOn(t -> t.step().endsWith("created")).allMatch(t -> t.toMilli() < alone);
  }

  @Test
  @Order(4)
  void theBusyLoopIsThrottledAtTheSmallLimitNotTheLargeAndExplainSaysSo() throws Exception {
    ThrottlingPhases phases = new ThrottlingPhases(cluster, node, broker.bootstrapServers(), incumbent, NS, "incumbent");
    ThrottlingPhases.Result result = phases.run(Path.of("target/runs").resolve(RUN).toAbsolutePath());
    System.out.println("MEASURED " + RUN + ": " + result);

    // one thread never exhausts a 2-core quota; at a few hundred millicores it does, in both records
    assertThat(result.large().cgroup().throttledPeriods()).isZero();
    assertThat(result.small().cgroup().throttledPeriods()).isPositive();
    assertThat(result.small().prometheusThrottled()).isGreaterThan(result.large().prometheusThrottled());
    assertThat(result.large().prometheusThrottled()).isZero();
    // explain read the same series: the container's limit is the small quota, and it saw the throttling
    assertThat(result.explainLimitMilli()).isEqualTo(result.small().quota().millicores());
    assertThat(result.explainThrottledRatio()).isPositive();
    assertThat(result.explainVerdict()).isIn("limit-too-low", "at-limit", "throttled-in-bursts");
  }

  @Test
  @Order(5)
  void aResizeTheKubeletDefersIsCountedAndWaitedOutThenApplied() throws Exception {
    DeferredResize deferred = DeferredResize.run(cluster, installation, incumbent, NS, "incumbent",
        allocatableMilli());
    System.out.println("MEASURED " + RUN + ": " + deferred);
    assertThat(deferred.condition()).startsWith("Deferred: Node didn't have enough resource: cpu");
    assertThat(deferred.quotaWhileDeferred()).isEqualTo(deferred.quotaBefore());
    assertThat(deferred.deferredCounted()).isPositive();
    assertThat(deferred.resizesWhileDeferred()).as("resizes sent while the kubelet deferred").isLessThanOrEqualTo(2);
    assertThat(deferred.quotaAfter().millicores()).isEqualTo(deferred.limitAfterMilli());
    assertThat(deferred.restarts()).isZero();
  }

  private long allocatableMilli() {
    return cluster.admin().nodes().withName(RealNode.NODE).get().getStatus().getAllocatable().get("cpu")
        .getNumericalAmount().movePointRight(3).longValueExact();
  }

  private Pod create(Pod pod) {
    cluster.admin().pods().inNamespace(NS).resource(pod).create();
    return running(pod.getMetadata().getName());
  }

  private Pod running(String name) {
    return await(name + " running").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
        .until(() -> cluster.pod(NS, name), p -> p.isPresent() && p.get().getStatus().getContainerStatuses() != null
            && !p.get().getStatus().getContainerStatuses().isEmpty()
            && p.get().getStatus().getContainerStatuses().get(0).getState().getRunning() != null).orElseThrow();
  }

  private String containerId(String name) {
    return BusyLoopPod.containerId(cluster.pod(NS, name).orElseThrow());
  }

  static CpuCgroup cgroupOf(Pod running) {
    String id = BusyLoopPod.containerId(running);
    return await("the cgroup of " + id).atMost(Duration.ofSeconds(30)).until(() -> CpuCgroup.ofContainer(id),
        Optional::isPresent).orElseThrow();
  }
}
