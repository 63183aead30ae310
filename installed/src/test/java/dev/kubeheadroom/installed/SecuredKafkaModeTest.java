package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kafka.embedded.SaslUsers;
import dev.kubeheadroom.schemas.KafkaAcls;
import dev.kubeheadroom.schemas.KafkaAcls.Identity;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.RecordingAuthorizer;
import dev.kubeheadroom.testkit.RecordingAuthorizer.Decision;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The all-in-one release on a secured Kafka, configured as docs/running-beside-kafka.md tells a
 * user: a broker that takes only SASL_SSL (SCRAM-SHA-512) and allows nothing without an ACL, the
 * release's principal granted the {@link KafkaAcls} rows of the four stages it runs, a read-only
 * principal granted the audit rows, each principal's client properties in a Secret of its own
 * named by {@code kafka.clientProperties} and {@code kafka.auditClientProperties}. The pod sets a
 * limit, {@code kubectl headroom explain} and {@code audit --verify} work as the read-only
 * identity, and Kafka refused nothing to either.
 *
 * <p>All-in-one, because the chart gives every stage of a release one {@code kafka.clientProperties}
 * Secret: one identity per release; in split mode every stage would log in as the same principal
 * too. The broker runs in this JVM, not as a {@link BrokerProcess}: its authorizer's decisions
 * ({@link RecordingAuthorizer}) are read here.
 */
@Tag("installed")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredKafkaModeTest {
  private static final String NS = "team-a";
  private static final String RELEASE_USER = "headroom-release";
  private static final String AUDIT_USER = "headroom-audit";
  private static final String RELEASE_SECRET = "headroom-kafka";
  private static final String AUDIT_SECRET = "headroom-kafka-audit";
  /** The chart's volume of the {@code kafka.auditClientProperties} Secret in the actuator/all-in-one pod. */
  private static final String AUDIT_VOLUME = "audit-kafka-client";

  private final Path dir = Path.of("target/runs/secured-kafka").toAbsolutePath();
  private Cluster cluster;
  private EmbeddedKafka kafka;
  private Installation installation;

  @BeforeAll
  void install() {
    cluster = Cluster.start();
    InstalledTier.deleteRecursively(dir);
    RecordingAuthorizer.clear();
    EmbeddedKafkaConfig config = EmbeddedKafkaConfig.ephemeral(dir.resolve("kafka"))
        .withSasl(SaslUsers.of(RELEASE_USER, AUDIT_USER));
    for (Map.Entry<String, String> e : RecordingAuthorizer.CONFIG.entrySet()) {
      config = config.withBrokerProperty(e.getKey(), e.getValue());
    }
    kafka = EmbeddedKafka.start(config);
    KafkaAcls.Names names = KafkaAcls.Names.under(Topics.defaults());
    try (Admin admin = kafka.admin()) {
      for (Identity stage : List.of(Identity.INGEST, Identity.TOPOLOGY, Identity.ACTUATOR, Identity.WEBHOOK)) {
        admin.createAcls(KafkaAcls.bindings(stage, "User:" + RELEASE_USER, names, true)).all().get(30, TimeUnit.SECONDS);
      }
      admin.createAcls(KafkaAcls.bindings(Identity.AUDIT, "User:" + AUDIT_USER, names, true)).all()
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("granting the ACLs failed: " + e, e);
    }
    // What a user does before helm install: the namespace and the two Secrets.
    String releaseNs = Installation.NAMESPACE;
    cluster.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(releaseNs)
        .endMetadata().build()).create();
    cluster.admin().secrets().resource(KafkaClientSecret.of(releaseNs, RELEASE_SECRET, kafka, RELEASE_USER)).create();
    cluster.admin().secrets().resource(KafkaClientSecret.of(releaseNs, AUDIT_SECRET, kafka, AUDIT_USER)).create();
    cluster.managedNamespace(NS);

    Map<String, Object> values = new HashMap<>(Installation.testValues(kafka.bootstrapServers()));
    values.put("allInOne.enabled", true);
    values.put("kafka.clientProperties.secretName", RELEASE_SECRET);
    values.put("kafka.auditClientProperties.secretName", AUDIT_SECRET);
    installation = Installation.install(cluster, dir, Installation.RELEASE, releaseNs, values);
  }

  @BeforeEach
  void theReleaseStillRuns() {
    installation.assertEveryReplicaRuns();
  }

  @AfterAll
  void uninstall() throws Exception {
    InstalledTier.closeInOrder(installation, cluster, kafka);
  }

  @Test
  @Order(1)
  void thePodGetsItsLimitThroughTheSecuredKafka() {
    InstalledTier.enforce(cluster);
    cluster.node("n1", "16");
    cluster.pod(NS, "web", "n1", "2");
    // the lone pod's limit climbs to the node: 2 + 14 cores of slack (under the 10x cap)
    cluster.awaitLimits(Map.of(NS + "/web", 16_000L));
  }

  @Test
  @Order(2)
  void explainAndAuditRunAsTheReadOnlyIdentity() {
    PodExec.Result explain = exec("explain", NS + "/web");
    assertThat(explain.exitCode()).as(explain.output()).isZero();
    assertThat(explain.output()).contains("Pod " + NS + "/web on node n1");
    PodExec.Result audit = exec("audit", "--verify", "--from", "2020-01-01T00:00:00Z", "--to", Instant.now().toString());
    assertThat(audit.exitCode()).as(audit.output()).isZero();
    assertThat(audit.output()).containsPattern("[1-9]\\d* decisions in .* re-derived: 0 differ");
    // they logged in as the read-only principal, not as the release's
    assertThat(RecordingAuthorizer.decisions()).anyMatch(d -> d.allowed() && d.principal().equals("User:" + AUDIT_USER));
  }

  @Test
  @Order(3)
  void kafkaRefusedNothingToEitherIdentity() {
    List<Decision> refused = RecordingAuthorizer.decisions().stream()
        .filter(d -> !d.allowed() && d.audited() && d.principal().startsWith("User:headroom-")).toList();
    assertThat(refused).as("authorizations refused to the release or the audit identity").isEmpty();
    assertThat(RecordingAuthorizer.decisions()).anyMatch(d -> d.allowed() && d.principal().equals("User:" + RELEASE_USER));
  }

  /**
   * {@code kubectl headroom <args>} as the plugin runs it ({@code deploy/kubectl-headroom}): in the
   * pod, with the container's Kafka flags but its {@code --kafka-client-properties}, which
   * {@code HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES} (the mounted audit Secret) replaces.
   */
  private PodExec.Result exec(String... args) {
    StageProcess pod = installation.processes().get(0);
    String auditFile = pod.plan().env().get("HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES");
    assertThat(auditFile).as("HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES in " + pod.podName()).isNotNull();
    Path local = pod.plan().dir().resolve("volumes").resolve(AUDIT_VOLUME).resolve(Path.of(auditFile).getFileName());
    List<String> flags = new java.util.ArrayList<>(List.of(args));
    pod.plan().command().stream()
        .filter(a -> a.startsWith("--kafka-bootstrap-servers=") || a.startsWith("--topic-prefix="))
        .forEach(flags::add);
    flags.add("--kafka-client-properties=" + local);
    return PodExec.run(pod, flags);
  }
}
