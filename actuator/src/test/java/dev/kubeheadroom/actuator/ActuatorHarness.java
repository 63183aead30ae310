package dev.kubeheadroom.actuator;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.KafkaBrokerExtension;
import dev.kubeheadroom.testkit.TestKafka;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One actuator under test: a real broker (testkit), fresh topics under a unique prefix, a fresh
 * API server double with its kubelet, and a meter registry to read. A test class registers one
 * per test ({@code @RegisterExtension final ActuatorHarness h = new ActuatorHarness();}): it is
 * opened before each test on the class's {@link dev.kubeheadroom.testkit.WithKafka} broker and
 * closed after it; a test with a broker of its own opens one with {@link #ActuatorHarness(KafkaBroker)}.
 */
final class ActuatorHarness implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
  static final String NS = "team-a";
  static final Duration WAIT = Duration.ofSeconds(20);

  KafkaBroker kafka;
  ApiServerDouble api;
  KubeletDouble kubelet;
  final Topics topics = new Topics(TestKafka.uniqueName("actuator") + ".");
  final String groupId = TestKafka.uniqueName("actuator-group");
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private KafkaProducer<String, byte[]> producer;
  private final List<Actuator> started = new ArrayList<>();

  /** Opened by JUnit before each test (as a registered extension). */
  ActuatorHarness() {}

  /** Opened now, on {@code kafka}. */
  ActuatorHarness(KafkaBroker kafka) {
    open(kafka);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    open(KafkaBrokerExtension.broker(context));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  private void open(KafkaBroker kafka) {
    this.kafka = kafka;
    api = ApiServerDouble.start();
    kubelet = KubeletDouble.start(api);
    // the testkit's helpers wait until every leader serves requests (TopicBootstrap only waits
    // for leaders in the metadata, and an early idempotent producer can then lose records)
    Map<String, Integer> nodeKeyed = new HashMap<>();
    topics.nodeKeyed().forEach(t -> nodeKeyed.put(t, 2));
    nodeKeyed.put(topics.deadLetter(), 1);
    kafka.createTopics(nodeKeyed);
    Map<String, Integer> compacted = new HashMap<>();
    topics.compacted().forEach(t -> compacted.put(t, 1));
    kafka.createTopics(compacted, Map.of("cleanup.policy", "compact"));
    producer = kafka.producer(new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer());
    // the current config governs: enforce unless a test says otherwise, and NS is opted in
    config(ENFORCING);
    namespace(new NamespaceInfo(NS, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0, 0, 0));
  }

  static final ClusterConfig ENFORCING = ClusterConfig.DEFAULTS.withDryRun(false);

  /**
   * A new group starts from the earliest offsets here (production: latest, see
   * ActuatorGateTest), so a test may queue a batch of decisions before the first start.
   */
  ActuatorSettings settings() {
    return ActuatorSettings.defaults(new KafkaClientSettings(kafka.bootstrapServers(),
        Map.of("auto.offset.reset", "earliest")), topics).with(b -> {
          b.groupId = groupId;
          b.instance = "actuator-test";
        });
  }

  void namespace(NamespaceInfo info) {
    send(topics.namespaces(), info.name(), HeadroomSerdes.namespaces().serialize(topics.namespaces(), info));
  }

  /** Starts an actuator and waits until it is ready. */
  Actuator start() {
    return start(settings());
  }

  Actuator start(ActuatorSettings settings) {
    return start(settings, api.config());
  }

  /** Starts an actuator whose client uses {@code kubeConfig} (e.g. through a {@link ThrottlingFront}). */
  Actuator start(ActuatorSettings settings, io.fabric8.kubernetes.client.Config kubeConfig) {
    // per-pod series on, so the applied-limit gauge can be asserted
    Actuator actuator = Actuator.start(settings, kubeConfig, registry,
        new dev.kubeheadroom.ops.HeadroomMetrics(registry, dev.kubeheadroom.ops.PodSeries.upTo(1000)),
        Clock.systemUTC());
    started.add(actuator);
    await().atMost(WAIT).until(actuator::ready);
    return actuator;
  }

  void produce(NodeDecision decision) {
    send(topics.decisions(), decision.node(),
        HeadroomSerdes.decisions().serialize(topics.decisions(), decision));
  }

  void config(ClusterConfig config) {
    send(topics.config(), HeadroomKeys.CONFIG_NAME, HeadroomSerdes.config().serialize(topics.config(), config));
  }

  void send(String topic, String key, byte[] value) {
    try {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (Exception e) {
      throw new AssertionError("cannot produce to " + topic, e);
    }
  }

  /** Outcomes read from the beginning until {@code done} holds. */
  List<ResizeOutcome> outcomesUntil(Predicate<List<ResizeOutcome>> done) {
    List<ConsumerRecord<String, NodeEvent>> records = kafka.consumeUntil(topics.outcomes(),
        new StringDeserializer(), HeadroomSerdes.nodeEvents(),
        rs -> done.test(outcomes(rs)), WAIT);
    return outcomes(records);
  }

  List<ConsumerRecord<String, NodeEvent>> outcomeRecordsUntil(int count) {
    return kafka.consumeUntil(topics.outcomes(), new StringDeserializer(), HeadroomSerdes.nodeEvents(),
        rs -> rs.size() >= count, WAIT);
  }

  private static List<ResizeOutcome> outcomes(List<? extends ConsumerRecord<String, NodeEvent>> records) {
    return records.stream().map(r -> (ResizeOutcome) r.value()).toList();
  }

  /** A Burstable pod: each container {@code name=request/limit} in CPU, 256Mi memory request and limit. */
  Pod pod(String name, String node, String... containers) {
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName(node).endSpec();
    for (String c : containers) {
      String[] parts = c.split("[=/]");
      b.editSpec().addToContainers(new ContainerBuilder().withName(parts[0]).withImage("registry.example/app:1")
          .withNewResources()
          .addToRequests("cpu", new Quantity(parts[1])).addToRequests("memory", new Quantity("256Mi"))
          .addToLimits("cpu", new Quantity(parts[2])).addToLimits("memory", new Quantity("256Mi"))
          .endResources().build()).endSpec();
    }
    return api.seedClient().pods().inNamespace(NS).resource(b.build()).create();
  }

  Pod stored(String name) {
    return api.pod(NS, name).orElseThrow();
  }

  String cpuLimit(String pod, int container) {
    return stored(pod).getSpec().getContainers().get(container).getResources().getLimits().get("cpu").toString();
  }

  List<Event> events(String reason) {
    return api.seedClient().events().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .filter(e -> EventRecorder.REPORTING_CONTROLLER.equals(e.getReportingController())) // not the kubelet's
        .toList();
  }

  double counter(String name, String result) {
    var counter = registry.find(name).tag("result", result).counter();
    return counter == null ? Double.NaN : counter.count();
  }

  @Override
  public void close() {
    started.forEach(Actuator::close);
    // null: opening failed part way, and JUnit reports that failure, not this
    if (producer != null) {
      producer.close();
    }
    if (kubelet != null) {
      kubelet.close();
    }
    if (api != null) {
      api.close();
    }
  }
}
