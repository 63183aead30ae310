package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.testkit.Promtool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The Phase-1 exit criteria of docs/design/headroom-design.txt §10 against Headroom as the chart installs it (one mode per
 * subclass): one cluster and one release for the whole class, the tests in order, each building
 * on the cluster the previous ones left (dry run, then enforcing, then the neighbour, the Job, the
 * quiet minute, the grants).
 */
@Tag("installed")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class InstalledTier {
  static final String NS = "team-a";

  protected BrokerProcess broker;
  protected Cluster cluster;
  protected Installation installation;

  /** What makes the mode: the values on top of {@link Installation#testValues}. */
  abstract Map<String, Object> modeValues();

  /** The mode's name, for directories and the README section. */
  abstract String mode();

  @RegisterExtension
  final TestWatcher printOutputsOnFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      if (installation != null) {
        System.out.println("stage outputs after " + context.getDisplayName() + " failed:" + installation.outputs());
      }
    }
  };

  /** The API server this class installs into: a fresh API double (the fault rows need one). */
  Cluster startCluster() {
    return Cluster.start();
  }

  /** The tenants' namespace (a class of its own where classes share a server). */
  String ns() {
    return NS;
  }

  /** The release namespace. */
  String releaseNamespace() {
    return Installation.NAMESPACE;
  }

  /** The run's name: the mode, and the server where it is not the double. */
  String runName() {
    return mode();
  }

  /** Where this run's broker data and pods' directories go (kept after the run, for their logs). */
  Path runDir() {
    return Path.of("target/runs").resolve(runName()).toAbsolutePath();
  }

  @BeforeAll
  void install() {
    // A fresh directory: a broker restarted on an earlier run's data would feed that run's
    // cluster to this one. One broker per mode: the modes' releases would otherwise share topics.
    // Its own process, so that the fault tests can kill it as a failed node would.
    // (the cluster first: a real server whose binaries are missing skips the class right here)
    cluster = startCluster();
    deleteRecursively(runDir());
    broker = BrokerProcess.start(runDir().resolve("kafka"));
    cluster.managedNamespace(ns());
    Map<String, Object> values = new HashMap<>(Installation.testValues(broker.bootstrapServers()));
    values.putAll(modeValues());
    installation = Installation.install(cluster, runDir(), Installation.RELEASE, releaseNamespace(), values);
    System.out.printf("MEASURED %s: installed and every replica ready in %d s%n", runName(),
        installation.startup().toSeconds());
  }

  /** One replica that exited fails every later test. */
  @BeforeEach
  void everyReplicaStillRuns() {
    installation.assertEveryReplicaRuns();
  }

  @AfterAll
  void uninstall() throws Exception {
    InstalledTier.closeInOrder(installation, cluster, broker);
  }

  @Test
  @Order(1)
  void dryRunAnnotatesAndRecordsAnEventButNeverResizes() {
    // given the sample HeadroomConfig (dryRun: true) the harness applied, as the runbook does
    assertThat(spec().get("dryRun")).isEqualTo(true);

    // when a managed pod requesting 2 cores is bound alone to a 16-core node
    cluster.node("dry", "16");
    cluster.pod(ns(), "dry", "dry", "2");

    // then Headroom annotates it with what it would do, and records an Event on it ...
    await("the status annotation").atMost(Cluster.CONVERGE).until(() -> cluster.pod(ns(), "dry")
        .map(p -> p.getMetadata().getAnnotations())
        .map(a -> a != null && a.containsKey(HeadroomKeys.STATUS_ANNOTATION)).orElse(false));
    await("an Event on the pod").atMost(Cluster.CONVERGE).until(() -> Events.byHeadroomAbout(cluster.admin(), ns(), "dry"),
        events -> !events.isEmpty());
    // ... and never asks for a resize, nor sets a limit
    assertThat(cluster.calls().stream().filter(c -> c.isResize() && c.namespace().equals(ns())))
        .as("resize requests in dry run").isEmpty();
    assertThat(cluster.cpuLimitMilli(ns(), "dry")).isZero();
  }

  @Test
  @Order(2)
  void flippingTheConfigToEnforceStartsResizing() {
    // when the operator flips the HeadroomConfig to enforce
    enforce(cluster);

    // then the lone pod's limit climbs to the node: 2 + 14 cores of slack (under the 10x cap)
    cluster.awaitLimits(Map.of(ns() + "/dry", 16_000L));
  }

  @Test
  @Order(3)
  void aNeighbourShrinksTheIncumbentWithinFiveSeconds() {
    // given a managed pod (2 cores requested) that has climbed to a whole 16-core node
    cluster.node("pair", "16");
    cluster.pod(ns(), "incumbent", "pair", "2");
    cluster.awaitLimits(Map.of(ns() + "/incumbent", 16_000L));
    // (the server records a request just after storing its change: let the growth's entries land)
    sleep(Duration.ofSeconds(1));
    long resizesBefore = cluster.calls().stream().filter(c -> c.code() == 200 && c.isResizeOf(ns(), "incumbent"))
        .count();

    // when an 8-core neighbour is bound next to it
    Instant created = Instant.now();
    cluster.pod(ns(), "neighbour", "pair", "8");

    // then the incumbent shrinks to 2 + 6 x 2/10 = 3.2 cores, by a resize answered 200 within 5 s
    cluster.awaitLimits(Map.of(ns() + "/incumbent", 3_200L, ns() + "/neighbour", 12_800L));
    ApiCall shrink = await("the shrink in the server's record").atMost(Cluster.CONVERGE)
        .until(() -> cluster.calls().stream().filter(c -> c.code() == 200 && c.isResizeOf(ns(), "incumbent"))
            .skip(resizesBefore).findFirst(), java.util.Optional::isPresent).orElseThrow();
    Duration latency = Duration.between(created, shrink.at());
    System.out.printf("MEASURED %s: neighbour created -> incumbent resized (200): %d ms%n", runName(),
        latency.toMillis());
    assertThat(latency).isLessThanOrEqualTo(Duration.ofSeconds(5));
  }

  @Test
  @Order(4)
  void theWebhookSeedsABirthLimitOnTheJobsPod() {
    // given a 20-second Job in the managed namespace (the double runs no Job controller) ...
    Job job = cluster.admin().batch().v1().jobs().inNamespace(ns()).resource(new JobBuilder()
        .withNewMetadata().withName("ci-build").endMetadata()
        .withNewSpec().withBackoffLimit(0).withNewTemplate().withNewSpec().withRestartPolicy("Never")
          .addNewContainer().withName("build").withImage("registry.example/ci:1").withCommand("sleep", "20")
            .withNewResources().addToRequests("cpu", new Quantity("500m"))
              .addToRequests("memory", new Quantity("128Mi")).endResources()
          .endContainer().endSpec().endTemplate().endSpec().build()).create();

    // when its pod is created as the Job controller would create it (an ownerReference to the Job)
    Pod admitted = cluster.admin().pods().inNamespace(ns()).resource(jobPod(job)).create();

    // then the webhook seeded a birth limit: request x initialMultiplier (2) = 1 core
    assertThat(Cluster.limitMilli(admitted)).as("the CPU limit the pod was admitted with").isEqualTo(1_000L);
  }

  @Test
  @Order(5)
  void atRestOneIngestLeaderHoldsTheLeaseAndNoWriteReachesTheApiServer() {
    // given a converged cluster: every limit at its target and every resize annotated
    cluster.awaitLimits(Map.of(ns() + "/dry", 16_000L, ns() + "/incumbent", 3_200L, ns() + "/neighbour", 12_800L));
    await("every resize annotated").atMost(Cluster.CONVERGE).until(() -> {
      List<ApiCall> calls = cluster.calls().stream().filter(c -> c.code() == 200 && c.namespace().equals(ns()))
          .toList();
      return calls.stream().filter(ApiCall::isPodPatch).count() >= calls.stream().filter(ApiCall::isResize).count();
    });
    // ... and settled: no write (but the Lease's) for 15 s, longer than the HeadroomConfig status
    // interval (10 s) and the debounce (at most 10 s)
    await("no write for 15 s").atMost(Cluster.CONVERGE).pollInterval(Duration.ofSeconds(1)).until(() ->
        Calls.writesBesidesLeases(cluster.calls(), installation, Instant.now().minusSeconds(15)).isEmpty());
    String leaseName = installation.fullname() + "-ingest";
    Lease lease = cluster.admin().leases().inNamespace(installation.namespace).withName(leaseName).get();
    Duration leaseDuration = Duration.ofSeconds(lease.getSpec().getLeaseDurationSeconds());
    // three lease durations (45 s at the default 15 s): a holder that missed its renewals would
    // have lost the Lease to the other replica within one; and over three times the status
    // interval and the debounce
    Duration window = leaseDuration.multipliedBy(3);

    // when nothing changes in the cluster for the window
    Instant quietFrom = Instant.now();
    Set<String> holders = new LinkedHashSet<>();
    while (Instant.now().isBefore(quietFrom.plus(window))) {
      Lease now = cluster.admin().leases().inNamespace(installation.namespace).withName(leaseName).get();
      holders.add(now.getSpec().getHolderIdentity());
      sleep(Duration.ofMillis(500));
    }

    // then one ingest replica held the Lease throughout ...
    List<ApiCall> calls = cluster.calls();
    System.out.printf("MEASURED %s: Lease %s held by %s for %d s (%d lease durations); %d Lease writes%n", runName(),
        leaseName, holders, window.toSeconds(), window.toSeconds() / leaseDuration.toSeconds(),
        Calls.leaseWrites(calls, installation, quietFrom));
    assertThat(holders).hasSize(1);
    assertThat(holders.iterator().next()).startsWith(installation.fullname() + "-");
    // ... and no write but the Lease renewals reached the API server
    assertThat(Calls.writesBesidesLeases(calls, installation, quietFrom).stream().map(ApiCall::describe))
        .as("writes at rest").isEmpty();
  }

  @Test
  @Order(6)
  void aResizeTheKubeletCannotDoIsReportedAsAWarningEvent() {
    // given a node whose kubelet answers every resize Infeasible (a rare path: exercised so that
    // the grant it needs, events create for ingest, is seen used)
    cluster.backend.refuseResizes("small", "Node didn't have enough capacity");
    cluster.node("small", "4");

    // when a managed pod there is resized
    cluster.pod(ns(), "stuck", "small", "1");

    // then a warning Event says so
    await("an Infeasible Event").atMost(Cluster.CONVERGE).until(() -> Events.byHeadroomAbout(cluster.admin(), ns(), "stuck"),
        events -> events.stream().anyMatch(e -> e.contains("Infeasible")));
  }

  /**
   * Every replica's real scrape parses with promtool ({@code check metrics}: exit 1 is a parse
   * error, 3 lint problems); Headroom's own families lint clean. Lint of the JVM binders' names
   * (Micrometer's, e.g. {@code system_cpu_count}) is tolerated: not ours to rename.
   */
  @Test
  @Order(8)
  void everyStagesScrapeParsesWithPromtoolAndHeadroomsFamiliesLintClean() throws Exception {
    Promtool promtool = Promtool.require();
    for (StageProcess process : installation.processes()) {
      boolean secure = !process.plan().command().contains("--metrics-secure=false");
      String scrape = MetricsScrape.of(process, secure, installation.scraperToken());
      Promtool.Result check = promtool.checkMetrics(scrape);
      assertThat(check.exitCode()).as(process.podName() + ": " + check.output()).isIn(0, 3);
      assertThat(check.output().lines().filter(line -> line.startsWith("headroom_")))
          .as(process.podName()).isEmpty();
      assertThat(scrape).as(process.podName()).contains("headroom_build_info{");
    }
  }

  @Test
  @Order(90)
  void theGrantsTableInDeployReadmeIsTheOneThisRunObserved() {
    String table = grants().markdown();
    if (Boolean.getBoolean(GrantsReport.WRITE_PROPERTY)) {
      GrantsReport.write(mode(), table);
    }
    assertThat(GrantsReport.committed(mode()))
        .as("deploy/README.md's %s grants table differs from the calls this run observed; regenerate it with "
            + "mvn -pl installed -am verify -Dtest=%s -D%s=true", mode(), getClass().getSimpleName(),
            GrantsReport.WRITE_PROPERTY)
        .isEqualTo(table);
  }

  @Test
  @Order(91)
  void everyCallOfAStageIsGrantedByItsRole() {
    assertThat(grants().refused()).as("calls no role of the chart grants (403)").isEmpty();
  }

  @Test
  @Order(92)
  void everyGrantOfAStageRoleIsUsed() {
    assertThat(grants().unused(RarePaths.GRANTS)).as("grants no stage used (and not listed in RarePaths)").isEmpty();
  }

  private GrantsReport grants() {
    return new GrantsReport(installation, Calls.observed(cluster.calls(), installation));
  }

  private static Pod jobPod(Job job) {
    return new PodBuilder()
        .withNewMetadata().withName(job.getMetadata().getName() + "-x7k2p")
          .withLabels(Map.of("batch.kubernetes.io/job-name", job.getMetadata().getName(),
              "batch.kubernetes.io/controller-uid", job.getMetadata().getUid()))
          .addNewOwnerReference().withApiVersion("batch/v1").withKind("Job").withName(job.getMetadata().getName())
            .withUid(job.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
          .endOwnerReference()
        .endMetadata()
        .withSpec(job.getSpec().getTemplate().getSpec())
        .build();
  }

  /**
   * Flips the cluster's HeadroomConfig to enforce ({@code dryRun: false}), as an operator would
   * ({@code kubectl patch --type merge}): a merge patch without a resourceVersion, so ingest's
   * concurrent status writes cannot make it a 409 the way a read-modify-write can.
   */
  static void enforce(Cluster cluster) {
    dryRun(cluster, false);
  }

  /** Sets the cluster's HeadroomConfig {@code dryRun}, by merge patch (see {@link #enforce}). */
  static void dryRun(Cluster cluster, boolean on) {
    cluster.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName(HeadroomKeys.CONFIG_NAME)
        .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
            io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"dryRun\":" + on + "}}");
  }

  private Map<String, Object> spec() {
    return spec(cluster.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG)
        .withName(HeadroomKeys.CONFIG_NAME).get());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource config) {
    return (Map<String, Object>) config.getAdditionalProperties().get("spec");
  }

  static void deleteRecursively(Path dir) {
    if (!java.nio.file.Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot clear " + dir, e);
    }
  }

  /** Closes each in the order given (a release before its server and broker), skipping what never started. */
  static void closeInOrder(AutoCloseable... resources) throws Exception {
    for (AutoCloseable resource : resources) {
      if (resource != null) {
        resource.close();
      }
    }
  }

  static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis()); // sampling a Lease at a steady pace is the point here
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
