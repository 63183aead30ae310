package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The live pipeline for a test, every part separately stoppable: an embedded broker on a fixed
 * port and directory (so it can be stopped and started again with its records), the API double
 * and kubelet, and the three stages as one {@link Pipeline} (as {@link DemoRun} starts them), but at the real default
 * config: enforcement comes from a {@code HeadroomConfig} object in the double (ingest → config
 * topic → topology), not from a config view. A restarted stage keeps its identity in Kafka:
 * topology the same application id and state directory, actuator the same group id; ingest takes
 * the Lease again (short lease timings, so a lost holder is replaced within seconds). Every stage
 * reports to one registry, so counters add up over restarts.
 */
final class LivePipeline implements AutoCloseable {
  static final Duration STARTUP = Duration.ofSeconds(90);
  static final Duration CONVERGE = Duration.ofSeconds(60);
  static final String CONTAINER = "app";
  private static final int PARTITIONS = 3;

  final ApiServerDouble api;
  final KubeletDouble kubelet;
  private final Path dir;
  private final Topics topics = Topics.defaults();
  private final AtomicLong decisions = new AtomicLong();
  /** One registry over every stage start: counters carry on across a stage's restarts. */
  private final StageContext context = StageContext.inMemory();
  private int kafkaPort = EmbeddedKafkaConfig.EPHEMERAL_PORT;
  private EmbeddedKafka broker;
  private Pipeline stages;

  private LivePipeline(Path dir) {
    this.dir = dir;
    this.api = ApiServerDouble.start();
    this.kubelet = KubeletDouble.start(api);
  }

  /** Everything up at the real defaults, enforcing ({@code HeadroomConfig} with {@code dryRun: false}). */
  static LivePipeline start(Path dir) {
    return start(dir, Map.of());
  }

  /** As {@link #start(Path)}, with further {@code HeadroomConfig} spec fields (one knob a test needs). */
  static LivePipeline start(Path dir, Map<String, Object> configSpec) {
    LivePipeline p = new LivePipeline(dir);
    try {
      Map<String, Object> spec = new HashMap<>(configSpec);
      spec.put("dryRun", false);
      p.api.seedClient().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG)
          .resource(new GenericKubernetesResourceBuilder().withApiVersion(HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION)
              .withKind("HeadroomConfig").withNewMetadata().withName(HeadroomKeys.CONFIG_NAME).endMetadata()
              .withAdditionalProperties(Map.of("spec", spec)).build())
          .create();
      p.startBroker();
      try (Admin admin = p.broker.admin()) {
        TopicBootstrap.ensure(admin, p.topics, TopicLayout.singleBroker(PARTITIONS), STARTUP);
      }
      p.stages = Pipeline.start(p.context, List.of(p.topologySpec(), p.ingestSpec(), p.actuatorSpec()));
      p.stages.awaitReady(STARTUP);
      return p;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.close();
      throw new IllegalStateException(e);
    } catch (RuntimeException | Error e) {
      p.close();
      throw e;
    }
  }

  // --- stages -------------------------------------------------------------------------------

  String bootstrapServers() {
    return "127.0.0.1:" + kafkaPort;
  }

  /** Starts the broker on the same directory and port as before (the first start picks the port). */
  void startBroker() {
    broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dir.resolve("kafka")).withPort(kafkaPort));
    kafkaPort = broker.port();
  }

  private TopologySpec topologySpec() {
    TopologyListener counter = new TopologyListener() {
      @Override
      public void decided(NodeDecision decision) {
        decisions.incrementAndGet();
      }
    };
    return new TopologySpec(new TopologyRunner.Options(TopologyRunner.Options.DEFAULT_APPLICATION_ID,
        KafkaClientSettings.of(bootstrapServers()), dir.resolve("streams-state")), TopologySettings.defaults(topics),
        counter);
  }

  private IngestSpec ingestSpec() {
    String identity = "ingest-1";
    return new IngestSpec(IngestSettings.defaults(KafkaClientSettings.of(bootstrapServers()), identity)
        .with(b -> {
          b.topics = topics;
          b.lease = IngestSettings.LeaseSettings.defaults(identity)
              .with(l -> {
                l.leaseDuration = Duration.ofSeconds(4);
                l.renewDeadline = Duration.ofSeconds(3);
                l.retryPeriod = Duration.ofMillis(300);
              });
        }),
        api.newClient());
  }

  private ActuatorSpec actuatorSpec() {
    return new ActuatorSpec(ActuatorSettings.defaults(KafkaClientSettings.of(bootstrapServers()), topics),
        api.config());
  }

  void startTopology() {
    start(TopologySpec.NAME);
  }

  void stopTopology() {
    stages.stop(TopologySpec.NAME);
  }

  void startIngest() {
    start(IngestSpec.NAME);
  }

  void stopIngest() {
    stages.stop(IngestSpec.NAME);
  }

  void startActuator() {
    start(ActuatorSpec.NAME);
  }

  void stopActuator() {
    stages.stop(ActuatorSpec.NAME);
  }

  private void start(String stage) {
    stages.start(stage);
    await(stage + " ready").atMost(STARTUP).until(() -> stages.ready(stage));
  }

  /** Stops every stage (the controller), leaving the broker and the cluster up. */
  void stopStages() {
    stopActuator();
    stopTopology();
    stopIngest();
  }

  void startStages() {
    startTopology();
    startIngest();
    startActuator();
  }

  /** Decisions the topology emitted so far (over restarts). */
  long decisions() {
    return decisions.get();
  }

  /** {@code headroom_resizes_total{result}} summed over every actuator this harness started. */
  double resizesCounted(OutcomeResult result) {
    var counter = context.registry().find(HeadroomMetrics.RESIZES).tag(HeadroomMetrics.RESULT, result.wireName())
        .counter();
    return counter == null ? 0 : counter.count();
  }

  // --- the cluster --------------------------------------------------------------------------

  /** A namespace labelled {@code kube-headroom.dev/mode=managed}. */
  void managedNamespace(String name) {
    api.seedClient().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build()).create();
  }

  void node(String name, String allocatableCpu) {
    api.seedClient().nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity(allocatableCpu), "memory", new Quantity("64Gi")))
        .endStatus().build()).create();
  }

  /** A Running Burstable pod bound to {@code node}, one container, a CPU request and no limit. */
  Pod pod(String namespace, String name, String node, String cpuRequest) {
    return pod(namespace, name, node, cpuRequest, null);
  }

  /** As above, with a CPU limit when {@code cpuLimit} is not null. */
  Pod pod(String namespace, String name, String node, String cpuRequest, String cpuLimit) {
    ResourceRequirementsBuilder resources = new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity(cpuRequest)).addToRequests("memory", new Quantity("256Mi"));
    if (cpuLimit != null) {
      resources.addToLimits("cpu", new Quantity(cpuLimit));
    }
    Pod pod = new PodBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec().withNodeName(node)
          .addNewContainer().withName(CONTAINER).withImage("registry.example/app:1").withResources(resources.build())
          .endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus()
        .build();
    return api.seedClient().pods().inNamespace(namespace).resource(pod).create();
  }

  void deletePod(String namespace, String name) {
    api.seedClient().pods().inNamespace(namespace).withName(name).delete();
  }

  /** The container's CPU limit in millicores at the double; 0 when it has none. */
  long cpuLimitMilli(String namespace, String name) {
    return api.pod(namespace, name).map(p -> milli(p, true)).orElseThrow(
        () -> new AssertionError("no pod " + namespace + "/" + name));
  }

  /** Every stored pod's CPU limit in millicores ({@code ns/name} → limit, 0 = none). */
  Map<String, Long> cpuLimits() {
    Map<String, Long> limits = new TreeMap<>();
    api.pods().forEach(p -> limits.put(key(p), milli(p, true)));
    return limits;
  }

  /** Every stored pod's CPU request in millicores. */
  Map<String, Long> cpuRequests() {
    Map<String, Long> requests = new TreeMap<>();
    api.pods().forEach(p -> requests.put(key(p), milli(p, false)));
    return requests;
  }

  /** Waits until each named pod ({@code ns/name}) has the given limit. */
  void awaitLimits(Map<String, Long> expected) {
    await("limits " + expected).atMost(CONVERGE).untilAsserted(() -> {
      Map<String, Long> now = new TreeMap<>(cpuLimits());
      now.keySet().retainAll(expected.keySet());
      assertThat(now).as("CPU limits (millicores) at the API server").isEqualTo(new TreeMap<>(expected));
    });
  }

  private static String key(Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  private static long milli(Pod pod, boolean limit) {
    long sum = 0;
    for (Container c : pod.getSpec().getContainers()) {
      Map<String, Quantity> m = c.getResources() == null ? null
          : limit ? c.getResources().getLimits() : c.getResources().getRequests();
      Quantity q = m == null ? null : m.get("cpu");
      if (q == null) {
        return 0;
      }
      sum += CpuQuantity.tryParseMilli(q).orElse(0);
    }
    return sum;
  }

  // --- what reached the API server ----------------------------------------------------------

  /** PATCH requests on pods and {@code pods/resize} that arrived at or after {@code since}. */
  long podPatchesSince(Instant since) {
    return api.requests().countSince(since, LivePipeline::isPodPatch);
  }

  /**
   * Waits until the journal's entries matching {@code matcher} satisfy {@code done}, and returns
   * them. The journal records a request after its change is stored, so a test that saw the
   * change must still wait for the entry.
   */
  List<RequestJournal.Entry> awaitRequests(Predicate<ApiRequest> matcher, Predicate<List<RequestJournal.Entry>> done) {
    return await("requests").atMost(CONVERGE).until(() -> api.requests().entries().stream()
        .filter(e -> matcher.test(e.request())).toList(), done);
  }

  static boolean isPodPatch(ApiRequest r) {
    return r.verb() == ApiRequest.Verb.PATCH && r.group().isEmpty() && r.resource().equals("pods")
        && (r.subresource().isEmpty() || r.subresource().equals("resize"));
  }

  // --- what reached Kafka -------------------------------------------------------------------

  /** Every committed outcome on the outcomes topic, read from the beginning to its end. */
  List<ResizeOutcome> outcomes() {
    return readAll(topics.outcomes(), v -> v instanceof ResizeOutcome).stream()
        .map(ResizeOutcome.class::cast).toList();
  }

  private List<NodeEvent> readAll(String topic, Predicate<NodeEvent> keep) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<String, NodeEvent> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
        HeadroomSerdes.nodeEvents().deserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<NodeEvent> out = new ArrayList<>();
      Instant deadline = Instant.now().plusSeconds(30);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (Instant.now().isAfter(deadline)) {
          throw new AssertionError("could not read " + topic + " to its end within 30 s");
        }
        for (ConsumerRecord<String, NodeEvent> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.value() != null && keep.test(r.value())) {
            out.add(r.value());
          }
        }
      }
      return out;
    }
  }

  @Override
  public void close() {
    for (AutoCloseable c : new AutoCloseable[] {stages, broker, kubelet, api}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          System.err.println("closing the live pipeline: " + e);
        }
      }
    }
  }
}
