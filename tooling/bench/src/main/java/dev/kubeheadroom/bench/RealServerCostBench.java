package dev.kubeheadroom.bench;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kubereal.ControlPlaneBinaries;
import dev.kubeheadroom.kubereal.NodeAgent;
import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What Headroom costs a real kube-apiserver (a harness {@code main}, not a timed test). A cluster
 * of {@code --nodes} × {@code --pods-per-node} ({@link DesignPointCluster}) is created on a real
 * server built by {@code tools/control-plane/build}, made Running by the {@link NodeAgent}; then
 * ingest, topology and actuator run in this JVM (an embedded broker) as one ServiceAccount, and
 * the server's audit log counts that identity's requests by verb and resource in each phase:
 * the initial sync (until no status write for {@code --quiet-s}), at rest ({@code --rest-s}),
 * churn ({@code --churn} pods a second created and deleted for {@code --churn-s}), and the
 * HeadroomConfig's {@code maxMultiplier} 10 → 4 (until quiet). Also the server's open watches and
 * resident memory before and after the stages started.
 *
 * <pre>
 * java -Xmx6g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.RealServerCostBench \
 *     --nodes 1000 --pods-per-node 30 --trace ../shared/traces/alibaba-openb
 * </pre>
 * Run from the repository's root (it finds {@code tools/control-plane/versions.env} from there).
 */
public final class RealServerCostBench {
  private static final String NAMESPACE = "kube-headroom";
  private static final String ACCOUNT = "headroom-bench";
  private static final String USERNAME = "system:serviceaccount:" + NAMESPACE + ":" + ACCOUNT;

  private RealServerCostBench() {}

  public static void main(String[] argv) throws Exception {
    Args.quietLogs();
    Map<String, String> a = Args.parse(argv);
    ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
    if (!binaries.available()) {
      System.err.println(binaries.missingReason());
      System.exit(4);
    }
    int nodes = Integer.parseInt(a.getOrDefault("nodes", "200"));
    int podsPerNode = Integer.parseInt(a.getOrDefault("pods-per-node", "30"));
    Duration quiet = Duration.ofSeconds(Long.parseLong(a.getOrDefault("quiet-s", "20")));
    DesignPointBench.Report out = new DesignPointBench.Report();
    DesignPointCluster cluster = new DesignPointCluster(nodes, podsPerNode,
        Double.parseDouble(a.getOrDefault("request-scale", "0.1")),
        a.containsKey("trace") ? Path.of(a.get("trace")) : null, 42);
    out.line("real-server cost: %d nodes x %d pods (%d pods), load %s", nodes, podsPerNode,
        cluster.pods.size(), DesignPointBench.Report.load());
    Path work = Files.createTempDirectory("real-server-cost");
    try (RealControlPlane api = RealControlPlane.start(binaries); NodeAgent agent = NodeAgent.start(api.client());
        EmbeddedKafka broker = EmbeddedKafka.start(work.resolve("kafka"))) {
      KubernetesClient admin = api.client();
      out.line("%s up", api);
      prepare(admin);
      out.phase();
      cluster.create(admin, Integer.parseInt(a.getOrDefault("seed-threads", "4")));
      checkNodeStatus(admin, cluster);
      awaitStarted(agent, cluster.pods.size(), Duration.ofMinutes(30));
      out.line("seeded and started in %s", out.phase());
      ApiServerMetrics before = ApiServerMetrics.scrape(admin);

      Topics topics = Topics.defaults();
      try (var kafkaAdmin = broker.admin()) {
        TopicBootstrap.ensure(kafkaAdmin, topics, TopicLayout.singleBroker(12), Duration.ofMinutes(2));
      }
      KafkaClientSettings kafka = KafkaClientSettings.of(broker.bootstrapServers());
      var identity = api.configAs(NAMESPACE, ACCOUNT);
      Instant syncStart = Instant.now();
      try (KubernetesClient ingestClient = api.clientAs(NAMESPACE, ACCOUNT);
          Pipeline stages = Pipeline.start(StageContext.of(new SimpleMeterRegistry()), List.of(
              new TopologySpec(new TopologyRunner.Options(TopologyRunner.Options.DEFAULT_APPLICATION_ID, kafka,
                  work.resolve("state"), 0, "", FailoverTimeouts.DEFAULTS), TopologySettings.defaults(topics)),
              new ActuatorSpec(ActuatorSettings.defaults(kafka, topics).with(b -> b.instance = "bench"), identity),
              new IngestSpec(IngestSettings.defaults(kafka, "bench").with(b -> b.topics = topics), ingestClient)))) {
        awaitFirstWrite(agent, Duration.ofMinutes(5)); // the initial sync's first resize, if it makes one
        Instant syncEnd = awaitQuiet(agent, quiet, Duration.ofSeconds(Long.parseLong(a.getOrDefault("sync-timeout-s", "900"))));
        out.line("initial sync quiet after %d s", Duration.between(syncStart, syncEnd).toSeconds());
        ApiServerMetrics running = ApiServerMetrics.scrape(admin);

        Instant restStart = Instant.now();
        Thread.sleep(Duration.ofSeconds(Long.parseLong(a.getOrDefault("rest-s", "60"))).toMillis());
        Instant restEnd = Instant.now();

        Instant churnStart = Instant.now();
        churn(admin, cluster, Double.parseDouble(a.getOrDefault("churn", "5")),
            Duration.ofSeconds(Long.parseLong(a.getOrDefault("churn-s", "60"))));
        Instant churnEnd = awaitQuiet(agent, quiet, Duration.ofMinutes(10));

        Instant configStart = Instant.now();
        admin.genericKubernetesResources("kube-headroom.dev/v1alpha1", "HeadroomConfig")
            .withName(HeadroomKeys.CONFIG_NAME).edit(c -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> spec = (Map<String, Object>) c.getAdditionalProperties().get("spec");
              spec.put("maxMultiplier", "4");
              return c;
            });
        Instant configEnd = awaitQuiet(agent, quiet, Duration.ofSeconds(Long.parseLong(a.getOrDefault("config-timeout-s", "1800"))));

        AuditTally tally = AuditTally.read(api.auditLog(), USERNAME);
        report(out, tally, "initial sync", syncStart, syncEnd);
        report(out, tally, "at rest", restStart, restEnd);
        report(out, tally, "churn", churnStart, churnEnd);
        report(out, tally, "config change 10 -> 4", configStart, configEnd);
        out.line("config change: peak patch pods/resize %d per second (the HeadroomConfig's clientQPS default: 50)",
            tally.peakPerSecond(configStart, configEnd, "patch", "pods/resize"));
        out.line("watches open: %d before Headroom, %d with it; kube-apiserver RSS %d MB before, %d MB with it",
            before.watches(), running.watches(), before.residentBytes() >> 20, running.residentBytes() >> 20);
      }
    } finally {
      out.line("done, load %s", DesignPointBench.Report.load());
      TempDirs.deleteQuietly(work);
    }
  }

  /** The CRD, the release namespace and the stages' identity (cluster-admin: the bench counts, the chart limits). */
  private static void prepare(KubernetesClient admin) throws Exception {
    admin.apiextensions().v1().customResourceDefinitions()
        .load(Files.newInputStream(Path.of("deploy/crds/headroomconfigs.kube-headroom.dev.yaml"))).create();
    admin.apiextensions().v1().customResourceDefinitions().withName("headroomconfigs.kube-headroom.dev")
        .waitUntilCondition(crd -> crd.getStatus() != null && crd.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")), 1, java.util.concurrent.TimeUnit.MINUTES);
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(ACCOUNT)
        .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
        .addNewSubject().withKind("ServiceAccount").withName(ACCOUNT).withNamespace(NAMESPACE).endSubject().build())
        .create();
  }

  /** Nodes created with a status keep it on a real server (as a kubelet registers them): checked, not assumed. */
  private static void checkNodeStatus(KubernetesClient admin, DesignPointCluster cluster) {
    for (String name : cluster.nodes) {
      Node node = admin.nodes().withName(name).get();
      if (node.getStatus() == null || node.getStatus().getAllocatable() == null || node.getStatus().getAllocatable().isEmpty()) {
        throw new IllegalStateException("Node " + name + " lost its status on create");
      }
    }
  }

  private static void awaitStarted(NodeAgent agent, int pods, Duration timeout) throws InterruptedException {
    Instant end = Instant.now().plus(timeout);
    while (agent.statusWrites() < pods && Instant.now().isBefore(end)) {
      Thread.sleep(500);
    }
  }

  private static void awaitFirstWrite(NodeAgent agent, Duration timeout) throws InterruptedException {
    long writes = agent.statusWrites();
    Instant end = Instant.now().plus(timeout);
    while (agent.statusWrites() == writes && Instant.now().isBefore(end)) {
      Thread.sleep(200);
    }
  }

  /** Waits until the node agent has written no status for {@code quiet} (no resize reached a kubelet); the last write's time. */
  private static Instant awaitQuiet(NodeAgent agent, Duration quiet, Duration timeout) throws InterruptedException {
    Instant end = Instant.now().plus(timeout);
    long writes = agent.statusWrites();
    Instant last = Instant.now();
    while (Instant.now().isBefore(end)) {
      Thread.sleep(500);
      long now = agent.statusWrites();
      if (now != writes) {
        writes = now;
        last = Instant.now();
      } else if (Duration.between(last, Instant.now()).compareTo(quiet) >= 0) {
        return last;
      }
    }
    return Instant.now();
  }

  /** {@code perSecond} new pods on random nodes of a managed namespace, each deleted two seconds later. */
  private static void churn(KubernetesClient admin, DesignPointCluster cluster, double perSecond, Duration length)
      throws InterruptedException {
    Random random = new Random(7);
    List<DesignPointCluster.SeededPod> created = new ArrayList<>();
    Instant end = Instant.now().plus(length);
    long periodMs = Math.max(1, Math.round(1000 / perSecond));
    for (int i = 0; Instant.now().isBefore(end); i++) {
      DesignPointCluster.SeededPod template = cluster.pods.get(random.nextInt(cluster.pods.size()));
      DesignPointCluster.SeededPod pod = new DesignPointCluster.SeededPod(DesignPointCluster.namespace(1),
          "churn-" + i + "-0", template.node(), template.requestMilli(), 0, true);
      admin.pods().inNamespace(pod.namespace()).resource(DesignPointCluster.pod(pod)).create();
      created.add(pod);
      if (created.size() > 2 * perSecond) {
        DesignPointCluster.SeededPod gone = created.remove(0);
        admin.pods().inNamespace(gone.namespace()).withName(gone.name()).delete();
      }
      Thread.sleep(periodMs);
    }
    created.forEach(p -> admin.pods().inNamespace(p.namespace()).withName(p.name()).delete());
  }

  private static void report(DesignPointBench.Report out, AuditTally tally, String phase, Instant from, Instant to) {
    out.line("%s (%d s, %d refused): %s", phase, Duration.between(from, to).toSeconds(), tally.refused(from, to),
        String.join("; ", tally.rows(from, to)));
  }
}
