package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.FaultInjector;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Faults injected into the live pipeline as the chart installs it (one {@link Installation} on the
 * API double, every stage its own process, the broker its own process), while tenants keep
 * changing the cluster ({@link Churn}); each scenario ends in a {@link FaultRow} measured by
 * {@link FaultMeasure}. The scenarios run in sequence on the same cluster, each starting from the
 * converged state the previous one left.
 */
final class FaultSuite implements AutoCloseable {
  static final String NS = "faults";
  private static final Map<String, Long> NODES = Map.of("f1", 16_000L, "f2", 16_000L, "f3", 16_000L, "fh", 16_000L);
  /** 9 × 10^15 cores: the API server stores it; two of them overflow 64-bit millicores. */
  static final String ABSURD_CPU = "9000000000000000";

  /** Where each scenario's start and row are appended as they happen. */
  static final java.nio.file.Path PROGRESS = java.nio.file.Path.of("target/faults/progress.log");

  private final String mode;
  private final Cluster cluster;
  private final Installation installation;
  private final BrokerProcess broker;
  private final Churn churn;
  private final ReplicaKeeper keeper;
  private final FaultMeasure measure;
  private final Duration churnPeriod;
  private final List<FaultRow> rows = new ArrayList<>();
  private final java.util.function.Consumer<FaultRow> onRow;
  /** Which scenarios are played, by their fault's name: all unless {@link #only} narrows them. */
  private java.util.function.Predicate<String> selected = fault -> true;
  /** The HeadroomConfig's {@code backoffPeriod}: the sample's 60 s unless {@link #backoffPeriod} set it. */
  private Duration backoff = Duration.ofSeconds(60);

  FaultSuite(String mode, Cluster cluster, Installation installation, BrokerProcess broker, Duration converge) {
    this(mode, cluster, installation, broker, converge, row -> {});
  }

  /** As above, {@code onRow} told of each row as soon as it is measured (so that a run cut short keeps its rows). */
  FaultSuite(String mode, Cluster cluster, Installation installation, BrokerProcess broker, Duration converge,
      java.util.function.Consumer<FaultRow> onRow) {
    this.onRow = onRow;
    this.mode = mode;
    this.cluster = cluster;
    this.installation = installation;
    this.broker = broker;
    this.churnPeriod = Duration.ofMillis(500);
    cluster.managedNamespace(NS);
    NODES.keySet().stream().sorted().forEach(n -> cluster.node(n, Long.toString(NODES.get(n) / 1000)));
    // the churn books at most 14 of each node's 16 cores, so every node keeps some slack
    churn = new Churn(cluster, NS, Map.of("f1", 14_000L, "f2", 14_000L, "f3", 14_000L));
    keeper = new ReplicaKeeper(installation);
    measure = new FaultMeasure(cluster, broker, keeper, new PolicyOracle(cluster.api(), NS, NODES),
        new Topics(Topics.DEFAULT_PREFIX).decisions(), converge);
    for (int i = 0; i < 6; i++) {
      churn.step();
    }
  }

  List<FaultRow> rows() {
    return List.copyOf(rows);
  }

  /** The broker stopped (SIGTERM) for {@code outage} while the tenants keep changing pods. */
  void kafkaOutage(Duration outage) {
    scenario("Kafka down " + human(outage), w -> {
      broker.stop();
      InstalledTier.sleep(outage);
      broker.restart();
      return w.healed(1, 0, Set.of());
    });
  }

  /**
   * The API server unreachable for {@code outage}: every request answered 503 and every open watch
   * dropped (the double cannot refuse connections and keep its store), tenants included.
   */
  void apiOutage(Duration outage) {
    scenario("API server down " + human(outage), w -> {
      FaultInjector.Rule down = cluster.api().faults().always(RequestMatcher.any(),
          new Fault.Respond(503, "ServiceUnavailable", "the API server is down (injected)"));
      cluster.api().dropWatches();
      InstalledTier.sleep(outage);
      down.remove();
      return w.healed(1, 0, Set.of());
    });
  }

  /** kill -9 of every replica whose pod name contains {@code stage}, started again at once. */
  void kill(String label, List<String> podNames) {
    scenario("kill -9 " + label, w -> {
      List<StageProcess> killed = new ArrayList<>();
      for (String pod : podNames) {
        keeper.planned(pod);
        StageProcess p = installation.process(pod);
        p.kill9();
        killed.add(p);
      }
      InstalledTier.sleep(Duration.ofSeconds(3)); // the tenants keep going while it is down
      killed.forEach(installation::restart);
      podNames.forEach(keeper::unplanned);
      // stale decisions: those the dead stage's successor meets already superseded
      return w.healedCountingSuperseded(killed.size(), Set.of());
    });
  }

  /**
   * kill -9 of every replica at once (split mode), started again 3 s later in an order that makes
   * each stage come back to work that piled up for it: ingest and the rest at once (the pods
   * changed while no ingest watched reach Kafka by the new leader's re-publish, while the
   * topology's new instance waits out the killed member's session timeout: records wait for it),
   * the replicas {@code last} names only once the topology has decided something since the kill
   * (decisions wait in Kafka for the actuator). The tenants keep going until the last is back.
   */
  void killEveryStage(List<String> podNames, java.util.function.Predicate<String> last) {
    scenario("kill -9 every stage", w -> {
      List<StageProcess> killed = new ArrayList<>();
      for (String pod : podNames) {
        keeper.planned(pod);
        StageProcess p = installation.process(pod);
        p.kill9();
        killed.add(p);
      }
      int decided = measure.decisions().size();
      InstalledTier.sleep(Duration.ofSeconds(3));
      killed.stream().filter(p -> !last.test(p.podName())).forEach(installation::restart);
      await("a decision made while the last stages are down").atMost(Installation.STARTUP)
          .pollInterval(Duration.ofSeconds(2)).until(() -> measure.decisions().size() > decided);
      killed.stream().filter(p -> last.test(p.podName())).forEach(installation::restart);
      podNames.forEach(keeper::unplanned);
      return w.healedCountingSuperseded(killed.size(), Set.of());
    });
  }

  /** kill -9 of the broker mid-stream, started again on its data 3 s later. */
  void killBroker() {
    killBroker(Duration.ofSeconds(3), "kill -9 broker");
  }

  /**
   * kill -9 of the broker mid-stream, started again on its data after {@code down}, while the
   * stages run on and the tenants keep changing pods (ingest buffers them): the small suite's one
   * broker row, an unclean stop and an outage at once.
   */
  void killBroker(Duration down, String label) {
    scenario(label, w -> {
      broker.kill9();
      InstalledTier.sleep(down);
      broker.restart();
      return w.healed(1, 0, Set.of());
    });
  }

  /**
   * Pods the API server accepts with absurd CPU quantities, bound next to an ordinary one: two
   * containers requesting {@value #ABSURD_CPU} cores each (past the 64-bit millicore range: the
   * topology's {@code cpu-out-of-range}), one such container alone, a limit of that size on a
   * 1-core request, and a 1-nanocore request.
   */
  void hostilePods() {
    scenario("hostile pods (absurd CPU quantities)", w -> {
      List<Pod> hostile = List.of(
          pod("h-two", List.of(ABSURD_CPU, ABSURD_CPU), null),
          pod("h-one", List.of(ABSURD_CPU), null),
          pod("h-limit", List.of("1"), ABSURD_CPU),
          pod("h-tiny", List.of("1n"), null));
      int accepted = 0;
      for (Pod pod : hostile) {
        try {
          cluster.admin().pods().inNamespace(NS).resource(pod).create();
          accepted++;
        } catch (KubernetesClientException e) {
          progress("the API server refused " + pod.getMetadata().getName() + ": " + e.getMessage());
        }
      }
      cluster.pod(NS, "h-normal", "fh", "1");
      InstalledTier.sleep(Duration.ofSeconds(2));
      return w.healed(1, accepted, Set.of(NS + "/h-two", NS + "/h-one", NS + "/h-limit", NS + "/h-tiny"));
    });
  }

  /**
   * Every resize of one pod refused 422 (a LimitRange or a validation the policy cannot see) until
   * {@code window} after its first try: its retries must back off (RefusalBackoff, at most 8
   * patches an hour).
   */
  void persistentRefusal(Duration window) {
    String name = "r" + rows.size();
    scenario("every resize of a pod refused (422) for " + human(window), w -> {
          FaultInjector.Rule refuse = cluster.api().faults().always(RequestMatcher.resizeOf(NS, name),
              Fault.invalid("spec.containers[0].resources.limits: Invalid value: refused by the fault suite"));
          Instant from = Instant.now();
          cluster.pod(NS, name, "f1", "1");
          // the window runs from the first refused try: before it (the debounce, and minutes at a
          // high load) there is no backoff to check, and a row without a try would check nothing
          boolean tried = awaitFirstResize(name, from);
          InstalledTier.sleep(window);
          refuse.remove();
          long tries = cluster.api().requests().countSince(from, RequestMatcher.resizeOf(NS, name));
          // the first try, then one after each backoff at its shortest (RefusalBackoff: the base
          // doubling per refusal, less up to a fifth of jitter) that ends within the window
          long allowed = 1;
          for (long wait = backoff.toMillis() * 4 / 5, at = wait; at <= window.toMillis(); wait *= 2, at += wait) {
            allowed++;
          }
          List<String> problems = !tried ? List.of(name + ": never tried within " + human(REFUSAL_FIRST_TRY))
              : tries > allowed
              ? List.of(name + ": " + tries + " resizes in " + human(window) + ", more than " + allowed) : List.of();
          // The pod waits out its backoff after the last refusal (at most the nominal wait after
          // that many refusals), unmanaged until then, before its next try: awaited after the row
          // with its node's pods, so that the next scenario does not measure this one's wait.
          Duration nextTry = backoff.multipliedBy(1L << Math.min(4, Math.max(0, tries - 1)));
          return w.healed((int) tries, (int) tries, Set.of(NS + "/" + name)).withProblems(problems)
              .awaitingLater(NS + "/" + name, nextTry.plus(SETTLE_MARGIN), "its refusal backoff's next try");
        });
  }

  /** Past a documented wait's end: the debounce, the decision and its resize. */
  private static final Duration SETTLE_MARGIN = Duration.ofSeconds(20);

  /** How long the refusal row waits for the pod's first resize. */
  private static final Duration REFUSAL_FIRST_TRY = Duration.ofMinutes(2);

  private boolean awaitFirstResize(String pod, Instant since) {
    Instant deadline = Instant.now().plus(REFUSAL_FIRST_TRY);
    while (Instant.now().isBefore(deadline)) {
      if (cluster.api().requests().countSince(since, RequestMatcher.resizeOf(NS, pod)) > 0) {
        return true;
      }
      InstalledTier.sleep(Duration.ofMillis(200));
    }
    return false;
  }

  /**
   * The actuator down while decisions pile up, the operator flips dryRun on, the actuator comes
   * back to a backlog of enforcing decisions: none may be applied (DecisionGate). Then enforce
   * again: the limits converge.
   */
  void dryRunFlippedWithABacklog(String actuatorPod) {
    scenario("dryRun flipped on over a backlog", w -> {
      keeper.planned(actuatorPod);
      StageProcess actuator = installation.process(actuatorPod);
      actuator.kill9();
      InstalledTier.sleep(Duration.ofSeconds(8)); // the tenants' changes are decided, not applied
      int backlog = w.enforcedSinceStart();
      dryRun(true);
      InstalledTier.sleep(Duration.ofSeconds(3));
      StageProcess back = installation.restart(actuator);
      keeper.unplanned(actuatorPod);
      Instant restarted = Instant.now();
      await("the actuator ready").atMost(Installation.STARTUP).until(back::ready);
      InstalledTier.sleep(Duration.ofSeconds(10)); // time to (wrongly) apply the backlog
      long underDryRun = cluster.api().requests().countSince(restarted, RequestMatcher.resize());
      dryRun(false);
      List<String> problems = underDryRun > 0
          ? List.of(underDryRun + " resize requests while dryRun was true") : List.of();
      return w.healed(1, backlog, Set.of()).withProblems(problems);
    });
  }

  /**
   * Plays one scenario unless {@link #only} leaves it out: its window started (the tenants at
   * work), the fault injected and healed by {@code body}, then measured into a row.
   */
  private void scenario(String fault, java.util.function.Function<FaultMeasure.Window, FaultMeasure.Healed> body) {
    if (!selected.test(fault)) {
      progress(mode + ": " + fault + " (not selected)");
      return;
    }
    progress(mode + ": " + fault);
    FaultRow row;
    try {
      FaultMeasure.Window window = FaultMeasure.Window.start(measure, churn, churnPeriod);
      FaultMeasure.Healed healed;
      try {
        healed = body.apply(window);
      } finally {
        churn.close();
      }
      progress(mode + ": " + fault + " healed at " + healed.at() + ", measuring"); // a timeline for the stages' logs
      row = measure.row(fault, mode, window, healed);
    } catch (RuntimeException | AssertionError e) {
      // a scenario that could not be played is a row too: the next ones still run
      e.printStackTrace(System.out);
      row = new FaultRow(fault, mode, 0, 0, 0, java.util.Optional.empty(), 0, 0, List.of("the scenario failed: " + e),
          List.of());
    }
    progress(row.markdown() + (row.problems().isEmpty() ? "" : " " + row.problems())
        + (row.notes().isEmpty() ? "" : " notes: " + row.notes()));
    rows.add(row);
    onRow.accept(row);
  }

  /** To the test output, and to {@link #PROGRESS} as it happens (surefire shows output at the end). */
  static void progress(String line) {
    String stamped = Instant.now() + " FAULTS " + line;
    System.out.println(stamped);
    try {
      java.nio.file.Files.createDirectories(PROGRESS.getParent());
      java.nio.file.Files.writeString(PROGRESS, stamped + "\n", java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      System.out.println("cannot append to " + PROGRESS + ": " + e);
    }
  }

  /**
   * Sets the HeadroomConfig's {@code backoffPeriod} (the first wait after a refused resize, the
   * age at which an unconfirmed patch is presumed lost): a short one keeps the small suite's
   * refusal row within seconds.
   */
  FaultSuite backoffPeriod(Duration period) {
    cluster.admin().genericKubernetesResources(dev.kubeheadroom.kubedouble.ApiServerDouble.HEADROOM_CONFIG)
        .withName(HeadroomKeys.CONFIG_NAME).patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
            io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            "{\"spec\":{\"backoffPeriod\":\"" + period.toSeconds() + "s\"}}");
    backoff = period;
    return this;
  }

  /** Plays only the scenarios whose fault's name {@code faults} accepts (the others are logged as not selected). */
  FaultSuite only(java.util.function.Predicate<String> faults) {
    selected = faults;
    return this;
  }

  private void dryRun(boolean on) {
    InstalledTier.dryRun(cluster, on); // a merge patch: ingest's status writes cannot make it a 409
  }

  private static Pod pod(String name, List<String> cpuRequests, String cpuLimit) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
        .withNewSpec().withNodeName("fh").endSpec();
    for (int i = 0; i < cpuRequests.size(); i++) {
      var container = new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("c" + i)
          .withImage("registry.example/app:1").withNewResources()
          .addToRequests("cpu", new Quantity(cpuRequests.get(i))).addToRequests("memory", new Quantity("64Mi"));
      if (cpuLimit != null) {
        container = container.addToLimits("cpu", new Quantity(cpuLimit));
      }
      pod.editSpec().addToContainers(container.endResources().build()).endSpec();
    }
    return pod.build();
  }

  static String human(Duration d) {
    return d.toSeconds() % 60 == 0 && d.toSeconds() >= 60 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }

  @Override
  public void close() {
    churn.close();
    keeper.close();
  }
}
