package dev.kubeheadroom.webhook;

import static dev.kubeheadroom.webhook.Fixtures.enforcing;
import static dev.kubeheadroom.webhook.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.AdmissionCall;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The webhook as deployed: state from the real compacted topics on the in-JVM broker, HTTPS with
 * a verified certificate, called by the API server double's mutating-admission chain as the chart
 * registers it.
 */
@WithKafka
class WebhookIntegrationTest {
  private static final Map<String, String> COMPACTED = Map.of("cleanup.policy", "compact");
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private static Topics freshTopics() {
    return new Topics(TestKafka.uniqueName("webhook") + ".");
  }

  private static void createTopics(KafkaBroker kafka, Topics topics) {
    kafka.createTopics(Map.of(topics.namespaces(), 3, topics.config(), 1), COMPACTED);
  }

  private static void publish(KafkaBroker kafka, Topics topics, ClusterConfig config, NamespaceInfo... namespaces) {
    try (KafkaProducer<String, byte[]> producer = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      for (NamespaceInfo ns : namespaces) {
        producer.send(new ProducerRecord<>(topics.namespaces(), ns.name(),
            HeadroomSerdes.namespaces().serialize(topics.namespaces(), ns)));
      }
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          HeadroomSerdes.config().serialize(topics.config(), config)));
      producer.flush();
    }
  }

  private Webhook start(KafkaBroker kafka, Topics topics) {
    return Webhook.start(WebhookSettings.of(KafkaClientSettings.of(kafka.bootstrapServers()), topics, 0, TestTls.server()),
        registry);
  }

  private static NamespaceInfo managed(String name) {
    return new NamespaceInfo(name, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
  }

  @Test
  void podsAreAdmittedUnchangedUntilTheTopicsHaveBeenReadThenSeeded(KafkaBroker kafka) {
    Topics topics = freshTopics();
    try (Webhook webhook = start(kafka, topics)) {
      WebhookClient client = new WebhookClient(webhook.port());

      // given: the topics do not even exist yet
      JsonNode cold = tree(client.post(WebhookServer.MUTATE_PATH, Fixtures.bytes("pod-requests-no-limits.json")).body());
      assertThat(webhook.ready()).isFalse();
      assertThat(cold.at("/response/allowed").asBoolean()).isTrue();
      assertThat(cold.at("/response/patch").isMissingNode()).isTrue();
      assertThat(webhook.metrics().unchangedCount(AllowReason.WARMING_UP)).isEqualTo(1);

      // when: ingest publishes the namespace and the config
      createTopics(kafka, topics);
      publish(kafka, topics, enforcing(), managed("team-a"));

      // then: once the topics have been read to their end, the same pod is seeded
      await().atMost(Duration.ofSeconds(30)).until(webhook::ready);
      await().atMost(Duration.ofSeconds(10)).until(() -> webhook.state().namespace("team-a").isPresent()
          && !webhook.state().config().dryRun());
      JsonNode warm = tree(client.post(WebhookServer.MUTATE_PATH, Fixtures.bytes("pod-requests-no-limits.json")).body());
      assertThat(Fixtures.patch(warm).at("/0/value/cpu").asText()).isEqualTo("1");
    }
  }

  @Test
  void twentySecondJobInAManagedNamespaceGetsItsBoostedLimitAtAdmission(KafkaBroker kafka) {
    // given: the namespaces and config topics as ingest leaves them, read by a started webhook,
    // and an API server holding the chart's MutatingWebhookConfiguration for its Service
    Topics topics = freshTopics();
    createTopics(kafka, topics);
    publish(kafka, topics, enforcing(), managed("ci"),
        new NamespaceInfo("other", Map.of(), 0));
    try (Webhook webhook = start(kafka, topics); ApiServerDouble api = ApiServerDouble.start()) {
      await().atMost(Duration.ofSeconds(30)).until(webhook::ready);
      assertThat(webhook.state().namespace("ci")).isPresent();
      api.seedClient().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci")
          .addToLabels(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED).endMetadata().build()).create();
      api.routeService(TestTls.SERVICE_NAMESPACE, TestTls.SERVICE_NAME, 443,
          new InetSocketAddress(InetAddress.getLoopbackAddress(), webhook.port()));
      api.client().admissionRegistration().v1().mutatingWebhookConfigurations()
          .resource(chartConfiguration(TestTls.caBundle())).create();
      Job job = api.client().batch().v1().jobs().inNamespace("ci").resource(compileJob()).create();

      // when: the Job controller creates its pod; the API server's admission chain calls the
      // webhook over HTTPS (certificate verified for the Service name) and applies its patch
      Pod pod = podOf(job);
      api.client().pods().inNamespace("ci").resource(pod).create();

      // then: the stored pod carries limit = 2 × request, stays Burstable, keeps its owner
      Pod stored = api.pod("ci", pod.getMetadata().getName()).orElseThrow();
      var resources = stored.getSpec().getContainers().get(0).getResources();
      assertThat(resources.getLimits().get("cpu")).isEqualTo(new Quantity("1500m"));
      assertThat(resources.getRequests().get("cpu")).isEqualTo(new Quantity("750m"));
      assertThat(resources.getLimits().get("memory")).isEqualTo(new Quantity("1Gi"));
      assertThat(stored.getStatus().getQosClass()).isEqualTo("Burstable");
      assertThat(stored.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("Job");
      assertThat(api.admissionCalls()).singleElement().satisfies(call -> {
        assertThat(call.webhook()).isEqualTo("pod-cpu-limits.kube-headroom.dev");
        assertThat(call.outcome()).isEqualTo(AdmissionCall.Outcome.MUTATED);
      });
      assertThat(webhook.metrics().requestCount(WebhookMetrics.Result.MUTATED)).isEqualTo(1);

      // and: a pod labelled unmanaged is not even sent (the chart's objectSelector)
      api.client().pods().inNamespace("ci").resource(new PodBuilder(podOf(job)).editMetadata()
          .withName("compile-4711-opted-out").addToLabels(HeadroomKeys.MODE_LABEL, HeadroomKeys.UNMANAGED)
          .endMetadata().build()).create();
      assertThat(api.admissionCalls()).hasSize(1);
      assertThat(api.pod("ci", "compile-4711-opted-out").orElseThrow().getSpec().getContainers().get(0)
          .getResources().getLimits()).doesNotContainKey("cpu");
    }
  }

  /**
   * The MutatingWebhookConfiguration {@code deploy/charts/kube-headroom/templates/mutatingwebhook.yaml}
   * renders, with {@code caBundle} set as without cert-manager (cert-manager's CA injector writes the
   * same field). {@code timeoutSeconds} is 10 rather than the chart's 3: the first TLS handshake in
   * a cold JVM on this shared machine can take seconds, and under Ignore a timeout would only
   * show up as a pod admitted unchanged.
   */
  private static MutatingWebhookConfiguration chartConfiguration(String caBundle) {
    return new MutatingWebhookConfigurationBuilder().withNewMetadata().withName("kube-headroom").endMetadata()
        .addNewWebhook().withName("pod-cpu-limits.kube-headroom.dev").withAdmissionReviewVersions("v1")
        .withNewClientConfig().withNewService().withName(TestTls.SERVICE_NAME)
        .withNamespace(TestTls.SERVICE_NAMESPACE).withPath(WebhookServer.MUTATE_PATH).withPort(443).endService()
        .withCaBundle(caBundle).endClientConfig()
        .withFailurePolicy("Ignore").withSideEffects("None").withMatchPolicy("Equivalent")
        .withReinvocationPolicy("Never").withTimeoutSeconds(10)
        .withNewNamespaceSelector().addToMatchLabels(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)
        .endNamespaceSelector()
        .withNewObjectSelector().addNewMatchExpression().withKey(HeadroomKeys.MODE_LABEL).withOperator("NotIn")
        .withValues(HeadroomKeys.UNMANAGED).endMatchExpression().endObjectSelector()
        .addNewRule().withApiGroups("").withApiVersions("v1").withOperations("CREATE").withResources("pods")
        .withScope("Namespaced").endRule()
        .endWebhook().build();
  }

  @Test
  void tombstonesRemoveAndUnreadableRecordsAreSkippedAndCounted(KafkaBroker kafka) {
    Topics topics = freshTopics();
    createTopics(kafka, topics);
    publish(kafka, topics, enforcing(), managed("team-a"), managed("team-b"));
    try (Webhook webhook = start(kafka, topics);
        KafkaProducer<String, byte[]> producer = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      await().atMost(Duration.ofSeconds(30)).until(webhook::ready);
      assertThat(webhook.state().namespace("team-b")).isPresent();

      producer.send(new ProducerRecord<>(topics.namespaces(), "team-b", null));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-c", "{not json".getBytes(StandardCharsets.UTF_8)));
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME, null));
      producer.flush();

      await().atMost(Duration.ofSeconds(10)).until(() -> webhook.state().namespace("team-b").isEmpty()
          && webhook.state().config().dryRun());
      await().atMost(Duration.ofSeconds(10)).until(
          () -> registry.get("headroom.webhook.state.unreadable.records").counter().count() == 1);
      assertThat(webhook.state().namespace("team-a")).isPresent();
      assertThat(webhook.state().namespace("team-c")).isEmpty();
      assertThat(webhook.state().config()).isEqualTo(ClusterConfig.DEFAULTS);
    }
  }

  /** A CI job that compiles for about 20 seconds: 750m requested, no CPU limit declared. */
  private static Job compileJob() {
    return new JobBuilder().withNewMetadata().withName("compile-4711").withNamespace("ci").endMetadata()
        .withNewSpec().withBackoffLimit(0).withActiveDeadlineSeconds(120L)
        .withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addToContainers(new ContainerBuilder().withName("build").withImage("registry.example/ci/gradle:8")
            .withCommand("sh", "-c", "./gradlew assemble && sleep 20")
            .withNewResources()
            .addToRequests("cpu", new Quantity("750m")).addToRequests("memory", new Quantity("1Gi"))
            .addToLimits("memory", new Quantity("1Gi"))
            .endResources().build())
        .endSpec().endTemplate().endSpec().build();
  }

  /** The pod as the Job controller creates it: generated name, owner Job, job labels. */
  private static Pod podOf(Job job) {
    String uid = job.getMetadata().getUid() != null ? job.getMetadata().getUid() : UUID.randomUUID().toString();
    return new PodBuilder().withNewMetadata().withName(job.getMetadata().getName() + "-x7k2p")
        .withGenerateName(job.getMetadata().getName() + "-").withNamespace("ci")
        .addToLabels("batch.kubernetes.io/job-name", job.getMetadata().getName())
        .addToLabels("batch.kubernetes.io/controller-uid", uid)
        .addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
            .withName(job.getMetadata().getName()).withUid(uid).withController(true)
            .withBlockOwnerDeletion(true).build())
        .endMetadata()
        .withSpec(job.getSpec().getTemplate().getSpec())
        .build();
  }
}
