package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.schemas.KafkaAcls;
import dev.kubeheadroom.schemas.KafkaAcls.Identity;
import dev.kubeheadroom.testkit.RecordingAuthorizer;
import dev.kubeheadroom.testkit.RecordingAuthorizer.Decision;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every stage, and {@code audit}/{@code explain}, on a Kafka that allows nothing without an ACL,
 * each as its own principal granted exactly what {@link KafkaAcls} (and so
 * docs/running-beside-kafka.md) says: the pipeline sets a pod's limit, the read-only identity
 * explains and audits it, no client is refused anything, every grant was used, and an identity
 * missing one grant is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaAclsOnSecuredBrokerTest {
  /** Granted the audit identity's ACLs but for the pods topic. */
  private static final String WITHOUT_PODS = "headroom-audit-no-pods";
  /** Granted the audit identity's ACLs but for the checkpoints topic: refused too, not a quiet full replay. */
  private static final String WITHOUT_CHECKPOINTS = "headroom-audit-no-checkpoints";

  @TempDir static Path dir;
  private SecuredKafkaCluster cluster;

  @BeforeAll
  void aPipelineOnItsGrantsAlone() {
    cluster = new SecuredKafkaCluster(dir, WITHOUT_PODS, WITHOUT_CHECKPOINTS);
    cluster.grantTheTable();
    grantAuditBut(WITHOUT_PODS, cluster.names.topics().pods());
    grantAuditBut(WITHOUT_CHECKPOINTS, cluster.names.topics().checkpoints());
    cluster.seedCluster();
    String kubeconfig = cluster.kubeconfig().toString();
    // Ingest first: it creates the topics (its --topic-create grant); the others find them.
    int ingest = cluster.startStage(Identity.INGEST, "ingest", "--kubeconfig", kubeconfig, "--identity", "ingest-0");
    cluster.awaitReady("ingest", ingest);
    int topology = cluster.startStage(Identity.TOPOLOGY, "topology", "--state-dir", dir.resolve("state").toString());
    int actuator = cluster.startStage(Identity.ACTUATOR, "actuator", "--kubeconfig", kubeconfig);
    int webhook = cluster.startStage(Identity.WEBHOOK, "webhook", "--webhook-port", "0");
    cluster.awaitReady("topology", topology);
    cluster.awaitReady("actuator", actuator);
    cluster.awaitReady("webhook", webhook);
  }

  private void grantAuditBut(String user, String topic) {
    cluster.grant(KafkaAcls.bindings(Identity.AUDIT, "User:" + user, cluster.names, true).stream()
        .filter(b -> !b.pattern().name().equals(topic)).toList());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void thePipelineSetsAPodsLimitWithEachStageOnItsOwnGrants() {
    await("web-1's CPU limit set by the actuator").atMost(SecuredKafkaCluster.STARTUP)
        .until(() -> cpuLimit(cluster.api.pod("team-a", "web-1").orElseThrow()) != null);
    assertThat(cluster.exited()).as("stage commands that exited").isEmpty();
  }

  @Test
  @Order(2)
  void auditAndExplainRunOnTheirReadOnlyIdentity() {
    CliRun explain = cli(SecuredKafkaCluster.user(Identity.AUDIT), "explain", "team-a/web-1");
    assertThat(explain.exitCode()).as(explain.stdout() + explain.stderr()).isZero();
    assertThat(explain.stdout()).contains("Pod team-a/web-1 on node n1");
    CliRun audit = cli(SecuredKafkaCluster.user(Identity.AUDIT), "audit", "--verify", "--from",
        "2020-01-01T00:00:00Z", "--to", java.time.Instant.now().toString());
    assertThat(audit.exitCode()).as(audit.stdout() + audit.stderr()).isZero();
    assertThat(audit.stdout()).containsPattern("[1-9]\\d* decisions in .* re-derived: 0 differ");
  }

  @Test
  @Order(3)
  void noClientOfAnyIdentityWasRefusedAnything() {
    List<Decision> refused = RecordingAuthorizer.decisions().stream()
        .filter(d -> !d.allowed() && d.audited() && d.principal().startsWith("User:headroom-")
            && !d.principal().equals("User:" + WITHOUT_PODS) && !d.principal().equals("User:" + WITHOUT_CHECKPOINTS))
        .toList();
    assertThat(refused).as("authorizations refused to a Headroom identity").isEmpty();
  }

  @Test
  @Order(4)
  void everyGrantOfTheTableWasUsed() {
    List<Decision> decisions = RecordingAuthorizer.decisions();
    List<String> unused = new ArrayList<>();
    for (KafkaAcls.Grant row : KafkaAcls.grants(cluster.names)) {
      // Only the first stage to start creates the topics; the others hold Create for when they start first.
      if (row.when() != KafkaAcls.When.ALWAYS) {
        continue;
      }
      String principal = "User:" + SecuredKafkaCluster.user(row.identity());
      for (KafkaAcls.Grant g : KafkaAcls.expand(row)) {
        for (var op : g.operations()) {
          boolean used = decisions.stream().anyMatch(d -> d.allowed() && d.principal().equals(principal)
              && AclMatch.covers(g, op, d));
          if (!used) {
            unused.add(row.identity().label() + ": " + op + " on " + g.type() + " " + g.name());
          }
        }
      }
    }
    assertThat(unused).as("grants no client used").isEmpty();
  }

  @Test
  @Order(5)
  void anIdentityWithoutOneGrantIsRefused() {
    assertRefused(WITHOUT_PODS, cluster.names.topics().pods());
  }

  @Test
  @Order(6)
  void anIdentityWithoutCheckpointsIsRefusedNotQuietlySentToAFullReplay() {
    assertRefused(WITHOUT_CHECKPOINTS, cluster.names.topics().checkpoints());
  }

  private void assertRefused(String user, String topic) {
    CliRun explain = cli(user, "explain", "team-a/web-1");
    assertThat(explain.exitCode()).as(explain.stdout() + explain.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(explain.stderr().strip()).as("one line naming the refusal and the fix").doesNotContain("\n")
        .contains("Kafka refused this identity", topic, "docs/running-beside-kafka.md");
    assertThat(RecordingAuthorizer.decisions()).anySatisfy(d -> {
      assertThat(d.principal()).isEqualTo("User:" + user);
      assertThat(d.allowed()).isFalse();
      assertThat(d.name()).isEqualTo(topic);
    });
  }

  private CliRun cli(String user, String... args) {
    return CliRun.run(Stream.concat(Stream.of(args), cluster.kafkaArgs(user).stream()).toArray(String[]::new));
  }

  private static Object cpuLimit(Pod pod) {
    var limits = pod.getSpec().getContainers().get(0).getResources().getLimits();
    return limits == null ? null : limits.get("cpu");
  }
}
