package dev.kubeheadroom.demo;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.ingest.IngestMetrics;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.testkit.EmbeddedKafkaCluster;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.RestartPolicy;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.InternalTopics;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Headroom scaled out on a three-broker cluster, as production runs it: {@link EmbeddedKafkaCluster}
 * (replication factor 3, {@code min.insync.replicas} 2, through the production {@link
 * TopicBootstrap} and {@link InternalTopics}), the API double and kubelet, and several instances
 * of each stage: topology instances sharing one application id, actuators sharing one group,
 * ingest instances contending for one Lease. One topology instance and one actuator run in
 * their own JVMs ({@link ForkedStage}) so that they can be killed with SIGKILL; the others run
 * in this JVM.
 *
 * <p>Group timings are shortened ({@link Timings}) so a killed member's partitions move within
 * seconds rather than after the 45 s default session: the failover figures this harness prints
 * scale with those settings (docs/running-beside-kafka.md). The in-JVM instances run as one
 * supervised {@link Pipeline} each, as pods that are restarted.
 */
final class ScaledPipeline implements AutoCloseable {
  static final Duration STARTUP = Duration.ofSeconds(180);
  static final String VICTIM = "victim";
  private static final Logger LOG = LoggerFactory.getLogger(ScaledPipeline.class);

  /**
   * How fast the cluster notices a loss: properties of every group client (topology and
   * actuator), of the topology's clients only, and of the brokers.
   */
  record Timings(Map<String, String> groups, Map<String, String> topology, Map<String, String> brokers) {
    /** Sessions of 10 s, heartbeat 3 s; brokers fenced after 6 s (docs/running-beside-kafka.md). */
    static final Timings FIGURES = new Timings(
        Map.of("session.timeout.ms", "10000", "heartbeat.interval.ms", "3000"), Map.of(),
        Map.of("broker.session.timeout.ms", "6000", "broker.heartbeat.interval.ms", "1500"));

    /**
     * For a test in verify: the fewest seconds per loss that stay clear of false alarms under load.
     * Sessions of 4 s (the brokers' floor, {@code group.min.session.timeout.ms}, lowered from 6 s to
     * allow it); brokers fenced after 4 s. A SIGKILLed topology instance leaves its transaction
     * open, and read_committed readers of its partitions (the survivor's restore, the actuators)
     * wait until the coordinator aborts it: after {@code transaction.timeout.ms} (Streams' 10 s,
     * here 4 s), found by a scan every {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}
     * (10 s, here 1 s).
     */
    static final Timings QUICK = new Timings(
        Map.of("session.timeout.ms", "4000", "heartbeat.interval.ms", "1000"),
        Map.of("transaction.timeout.ms", "4000"),
        Map.of("broker.session.timeout.ms", "4000", "broker.heartbeat.interval.ms", "1000",
            "group.min.session.timeout.ms", "1000",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"));
  }

  /** How many instances of each stage, Kafka Streams' {@code num.standby.replicas}, the partitions, the timings. */
  record Shape(int topologies, int actuators, int ingests, int standbys, int partitions, Timings timings) {
    /** The figures' shape: 6 partitions, {@link Timings#FIGURES}. */
    Shape(int topologies, int actuators, int ingests, int standbys) {
      this(topologies, actuators, ingests, standbys, 6, Timings.FIGURES);
    }
  }

  final Topics topics = Topics.defaults();
  final TopicLayout layout;
  final ApiServerDouble api;
  final KubeletDouble kubelet;
  final EmbeddedKafkaCluster kafka;
  private final Path dir;
  private final Shape shape;
  private final List<Pipeline> instances = new ArrayList<>();
  private final List<MeterRegistry> ingestMeters = new ArrayList<>();
  private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor();
  private boolean settledOnce;
  private ForkedStage topologyVictim;
  private ForkedStage actuatorVictim;

  private ScaledPipeline(Path dir, Shape shape) {
    this.dir = dir;
    this.shape = shape;
    this.layout = new TopicLayout(shape.partitions(), (short) 3, TopicLayout.DEFAULT_RETENTION, 2);
    this.api = ApiServerDouble.start();
    this.kubelet = KubeletDouble.start(api);
    this.kafka = EmbeddedKafkaCluster.start(dir.resolve("kafka"), 3, shape.timings().brokers());
  }

  /**
   * Everything up, enforcing; returns once every instance is ready. {@code cluster} creates
   * Kubernetes objects there before any stage starts (ingest's first LIST carries them, as on a
   * restart).
   */
  static ScaledPipeline start(Path dir, Shape shape, Consumer<ApiServerDouble> cluster) {
    long t0 = System.nanoTime();
    ScaledPipeline p = new ScaledPipeline(dir, shape);
    try {
      LOG.info("STEP brokers and API double up in {} ms", (System.nanoTime() - t0) / 1_000_000);
      cluster.accept(p.api);
      p.api.seedClient().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG)
          .resource(new GenericKubernetesResourceBuilder().withApiVersion(HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION)
              .withKind("HeadroomConfig").withNewMetadata().withName(HeadroomKeys.CONFIG_NAME).endMetadata()
              .withAdditionalProperties(Map.of("spec", Map.of("dryRun", false))).build())
          .create();
      try (Admin admin = p.kafka.admin()) {
        TopicBootstrap.ensure(admin, p.topics, p.layout, STARTUP);
      }
      LOG.info("STEP topics created at {} ms", (System.nanoTime() - t0) / 1_000_000);
      p.startStages();
      LOG.info("STEP every instance ready at {} ms", (System.nanoTime() - t0) / 1_000_000);
      return p;
    } catch (RuntimeException | Error e) {
      p.close();
      throw e;
    }
  }

  private void startStages() {
    Path kubeconfig = dir.resolve("admin.kubeconfig");
    api.writeAdminKubeconfig(kubeconfig);
    List<StageSpec> specs = new ArrayList<>();
    for (int i = 1; i < shape.topologies(); i++) {
      specs.add(new TopologySpec(new TopologyRunner.Options(TopologyRunner.Options.DEFAULT_APPLICATION_ID,
          topologyClients(), dir.resolve("state-" + i), shape.standbys(), ""), TopologySettings.defaults(topics)));
    }
    for (int i = 1; i < shape.actuators(); i++) {
      specs.add(new ActuatorSpec(ActuatorSettings.defaults(groupClients(), topics), api.config()));
    }
    for (int i = 0; i < shape.ingests(); i++) {
      String identity = "ingest-" + i;
      specs.add(new IngestSpec(IngestSettings.defaults(KafkaClientSettings.of(kafka.bootstrapServers()), identity)
          .with(b -> {
            b.topics = topics;
            b.lease = IngestSettings.LeaseSettings.defaults(identity);
          }), api.newClient()));
    }
    // The forked JVMs boot while this one starts its instances: together, not one after another.
    topologyVictim = ForkedStage.launch(dir.resolve("topology-victim.log"), forkArgs("topology",
        dir.resolve("state-victim").toString(), Integer.toString(shape.standbys()), "client.id=" + VICTIM));
    actuatorVictim = ForkedStage.launch(dir.resolve("actuator-victim.log"), forkArgs("actuator", kubeconfig.toString()));
    // One Pipeline per instance, as one pod each; restarted in-process when they fail (an ingest
    // that loses the Lease stops, as its pod would exit and be restarted).
    for (StageSpec spec : specs) {
      StageContext context = StageContext.inMemory();
      if (spec instanceof IngestSpec) {
        ingestMeters.add(context.registry());
      }
      instances.add(Pipeline.start(context, RestartPolicy.IN_PROCESS, List.of(spec)));
    }
    LOG.info("STEP in-JVM instances started");
    topologyVictim.awaitReady(STARTUP);
    actuatorVictim.awaitReady(STARTUP);
    LOG.info("STEP forked instances ready");
    supervisor.scheduleWithFixedDelay(() -> instances.forEach(Pipeline::supervise), 1, 1, TimeUnit.SECONDS);
    await("every instance ready").atMost(STARTUP).pollInterval(Duration.ofMillis(500)).until(this::settled);
  }

  /** Every instance ready and the topology group whole and running, for two checks in a row. */
  private boolean settled() {
    boolean now = topologyVictim.alive() && actuatorVictim.alive()
        && instances.stream().filter(i -> !i.names().contains(IngestSpec.NAME)).allMatch(Pipeline::ready)
        && instances.stream().anyMatch(i -> i.names().contains(IngestSpec.NAME) && i.ready())
        && groupMembers(TopologyRunner.Options.DEFAULT_APPLICATION_ID) == shape.topologies()
        && groupStable(TopologyRunner.Options.DEFAULT_APPLICATION_ID);
    boolean settled = now && settledOnce;
    settledOnce = now;
    return settled;
  }

  private List<String> forkArgs(String stage, String... more) {
    List<String> args = new ArrayList<>(List.of(stage, kafka.bootstrapServers()));
    args.addAll(List.of(more));
    Map<String, String> props = stage.equals("topology") ? topologyClients().properties() : groupClients().properties();
    props.forEach((k, v) -> args.add(k + "=" + v));
    return args;
  }

  /** The group timings, and the changelogs replicated as the topics are (as the CLI wires it). */
  private KafkaClientSettings topologyClients() {
    Map<String, String> props = new HashMap<>(shape.timings().groups());
    props.putAll(shape.timings().topology());
    return InternalTopics.replicatedAs(layout, new KafkaClientSettings(kafka.bootstrapServers(), props));
  }

  private KafkaClientSettings groupClients() {
    return new KafkaClientSettings(kafka.bootstrapServers(), shape.timings().groups());
  }

  /** SIGKILL of the forked topology instance. */
  void killTopologyInstance() {
    topologyVictim.kill9();
  }

  /** SIGKILL of the forked actuator. */
  void killActuator() {
    actuatorVictim.kill9();
  }

  /** Per ingest instance, in start order: the records it published ({@code headroom.ingest.published}, all kinds). */
  List<Double> ingestPublished() {
    return ingestMeters.stream().map(r -> r.find(IngestMetrics.PUBLISHED).counters().stream()
        .mapToDouble(Counter::count).sum()).toList();
  }

  // --- what the groups look like --------------------------------------------------------------

  /** The partitions of {@code topic} the forked topology instance owns now. */
  Set<Integer> victimPartitions(String topic) {
    ConsumerGroupDescription group = describe(TopologyRunner.Options.DEFAULT_APPLICATION_ID);
    Set<Integer> out = new TreeSet<>();
    for (MemberDescription m : group.members()) {
      if (m.clientId().startsWith(VICTIM)) {
        m.assignment().topicPartitions().stream().filter(tp -> tp.topic().equals(topic))
            .map(TopicPartition::partition).forEach(out::add);
      }
    }
    return out;
  }

  boolean groupStable(String groupId) {
    return describe(groupId).groupState() == GroupState.STABLE;
  }

  int groupMembers(String groupId) {
    return describe(groupId).members().size();
  }

  /** The partitions of {@code topic} assigned to some member of {@code groupId}. */
  Set<Integer> assigned(String groupId, String topic) {
    Set<Integer> out = new TreeSet<>();
    describe(groupId).members().forEach(m -> m.assignment().topicPartitions().stream()
        .filter(tp -> tp.topic().equals(topic)).map(TopicPartition::partition).forEach(out::add));
    return out;
  }

  private ConsumerGroupDescription describe(String groupId) {
    try (Admin admin = kafka.admin()) {
      return admin.describeConsumerGroups(List.of(groupId)).all().get().get(groupId);
    } catch (Exception e) {
      throw new IllegalStateException("cannot describe group " + groupId, e);
    }
  }

  /** The partition of {@code partitions} the producers' default partitioner puts {@code node}'s records in. */
  static int partitionOf(String node, int partitions) {
    return Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /** One node name per partition ({@code node-<i>}, the first that hashes there). */
  static List<String> nodePerPartition(int partitions) {
    Map<Integer, String> byPartition = new HashMap<>();
    for (int i = 0; byPartition.size() < partitions; i++) {
      byPartition.putIfAbsent(partitionOf("node-" + i, partitions), "node-" + i);
    }
    List<String> names = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      names.add(byPartition.get(p));
    }
    return names;
  }

  @Override
  public void close() {
    supervisor.shutdownNow();
    List<AutoCloseable> all = new ArrayList<>();
    all.add(actuatorVictim);
    all.add(topologyVictim);
    List<AutoCloseable> started = new ArrayList<>(instances);
    Collections.reverse(started);
    all.addAll(started); // ingest first, the topology last
    all.add(kafka);
    all.add(kubelet);
    all.add(api);
    for (AutoCloseable c : all) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          System.err.println("closing the scaled pipeline: " + e);
        }
      }
    }
  }
}
