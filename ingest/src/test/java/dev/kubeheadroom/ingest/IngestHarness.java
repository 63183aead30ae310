package dev.kubeheadroom.ingest;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One API double, a fresh topic prefix on the given broker (one partition per topic, so the
 * order of records is the order of publishing), and the ingest instances a test starts.
 */
final class IngestHarness implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  final ApiServerDouble api = ApiServerDouble.start();
  final String bootstrapServers;
  final Topics topics = new Topics(TestKafka.uniqueName("ingest") + ".");
  private final KafkaBroker kafka;
  private final List<Ingest> started = new ArrayList<>();
  private final List<SimpleMeterRegistry> registries = new ArrayList<>();

  IngestHarness(KafkaBroker kafka) {
    this.kafka = kafka;
    this.bootstrapServers = kafka.bootstrapServers();
  }

  /** Settings for a test: short lease timings, topics created on first contact. */
  IngestSettings settings(String identity) {
    return IngestSettings.defaults(KafkaClientSettings.of(bootstrapServers), identity)
        .with(b -> {
          b.topics = topics;
          b.topicLayout = TopicLayout.singleBroker(1);
          b.lease = IngestSettings.LeaseSettings.defaults(identity)
              .with(l -> {
                l.leaseDuration = Duration.ofSeconds(4);
                l.renewDeadline = Duration.ofSeconds(3);
                l.retryPeriod = Duration.ofMillis(300);
              });
        });
  }

  Ingest start(String identity) {
    return start(identity, UnaryOperator.identity());
  }

  /** Starts an ingest with its own client and registry, and waits until it is ready. */
  Ingest start(String identity, UnaryOperator<IngestSettings> tweak) {
    return start(identity, tweak, api.newClient());
  }

  /** As above, on {@code client} (the caller closes it, after this harness). */
  Ingest start(String identity, UnaryOperator<IngestSettings> tweak, io.fabric8.kubernetes.client.KubernetesClient client) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Ingest ingest = Ingest.start(client, tweak.apply(settings(identity)), registry);
    started.add(ingest);
    registries.add(registry);
    await().atMost(TIMEOUT).until(ingest::ready);
    return ingest;
  }

  /**
   * As {@link #start(String)}, then waits until it leads and its first full re-publish is done, so
   * that what a test writes afterwards arrives as a change, never also inside that re-publish.
   */
  Ingest startLeader(String identity) {
    return startLeader(identity, UnaryOperator.identity());
  }

  /** As {@link #startLeader(String)}, with {@code tweak} applied to its settings. */
  Ingest startLeader(String identity, UnaryOperator<IngestSettings> tweak) {
    Ingest ingest = start(identity, tweak);
    await().atMost(TIMEOUT).until(() -> counter(ingest, IngestMetrics.RESYNCS, "reason", "leader") >= 1);
    return ingest;
  }

  SimpleMeterRegistry registry(Ingest ingest) {
    return registries.get(started.indexOf(ingest));
  }

  double counter(Ingest ingest, String name, String... tags) {
    var c = registry(ingest).find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  double gauge(Ingest ingest, String name) {
    return registry(ingest).get(name).gauge().value();
  }

  /** Creates (seeding: status kept as given) and returns the stored pod. */
  Pod seed(Pod pod) {
    return api.seedClient().pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
  }

  /** Replaces the stored pod with {@code change} applied (a PUT, as the kubelet or scheduler would). */
  Pod update(Pod stored, UnaryOperator<Pod> change) {
    Pod current = api.seedClient().pods().inNamespace(stored.getMetadata().getNamespace())
        .withName(stored.getMetadata().getName()).get();
    return api.seedClient().pods().inNamespace(current.getMetadata().getNamespace())
        .resource(change.apply(current)).update();
  }

  List<ConsumerRecord<String, NodeEvent>> podsUntil(Predicate<List<ConsumerRecord<String, NodeEvent>>> done) {
    return kafka.consumeUntil(topics.pods(), new StringDeserializer(), HeadroomSerdes.nodeEvents(), done, TIMEOUT);
  }

  List<ConsumerRecord<String, NodeEvent>> nodesUntil(Predicate<List<ConsumerRecord<String, NodeEvent>>> done) {
    return kafka.consumeUntil(topics.nodes(), new StringDeserializer(), HeadroomSerdes.nodeEvents(), done, TIMEOUT);
  }

  List<ConsumerRecord<String, NamespaceInfo>> namespacesUntil(
      Predicate<List<ConsumerRecord<String, NamespaceInfo>>> done) {
    return kafka.consumeUntil(topics.namespaces(), new StringDeserializer(), HeadroomSerdes.namespaces(), done, TIMEOUT);
  }

  List<ConsumerRecord<String, ClusterConfig>> configUntil(
      Predicate<List<ConsumerRecord<String, ClusterConfig>>> done) {
    return kafka.consumeUntil(topics.config(), new StringDeserializer(), HeadroomSerdes.config(), done, TIMEOUT);
  }

  /** The pod snapshots of one pod (by name) among {@code records}, in order. */
  static List<PodSnapshot> snapshotsOf(List<ConsumerRecord<String, NodeEvent>> records, String name) {
    return records.stream().map(ConsumerRecord::value)
        .filter(v -> v instanceof PodSnapshot s && s.name().equals(name))
        .map(PodSnapshot.class::cast).toList();
  }

  static Predicate<List<ConsumerRecord<String, NodeEvent>>> hasSnapshotOf(String name) {
    return records -> !snapshotsOf(records, name).isEmpty();
  }

  @Override
  public void close() {
    started.forEach(Ingest::close);
    api.close();
  }
}
