package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/kubectl-headroom} with a stub {@code kubectl} on the PATH that records its calls:
 * the command runs in the actuator pod, with the actuator's Kafka flags for audit and explain;
 * and the krew manifest pins the archive {@code deploy/krew/package} builds.
 */
class KubectlPluginTest {
  private static final Path PLUGIN = Charts.DEPLOY.resolve("kubectl-headroom");
  private static final String STUB = """
      #!/usr/bin/env bash
      printf '%s\\n' "$*" >> "$KUBECTL_LOG"
      case " $* " in
        *" get deployment/kube-headroom-actuator --output name "*) [[ -z "$AIO" ]] || exit 1; echo x ;;
        *" get deployment/kube-headroom-all-in-one --output name "*) [[ -n "$AIO" ]] || exit 1; echo x ;;
        *go-template*) printf '%s\\n' actuator --kafka-bootstrap-servers=kafka:9092 --topic-prefix=eu. \\
            --kafka-client-properties=/etc/headroom/kafka/client.properties --actuator-group-id=g
          [[ -z "$AUDIT_PROPERTIES" ]] || echo "HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES=$AUDIT_PROPERTIES" ;;
        *" exec "*) echo "EXEC $*" ;;
        *) exit 1 ;;
      esac
      """;

  @TempDir Path tmp;
  Path log;

  @BeforeEach
  void stubKubectl() throws IOException {
    Path kubectl = tmp.resolve("bin/kubectl");
    Files.createDirectories(kubectl.getParent());
    Files.writeString(kubectl, STUB);
    Files.setPosixFilePermissions(kubectl, PosixFilePermissions.fromString("rwxr-xr-x"));
    log = tmp.resolve("kubectl.log");
  }

  @Test
  void explainRunsInTheActuatorPodWithItsKafkaFlags() throws Exception {
    Run r = plugin(Map.of(), "explain", "team-a/web-1", "-o", "json");

    assertThat(r.code()).as(r.err()).isZero();
    // stdin is not a terminal here (a pipe, as `... | kubectl headroom policy`): it is passed on.
    assertThat(r.out().strip()).isEqualTo("EXEC --namespace kube-headroom-system exec --container headroom --stdin "
        + "deployment/kube-headroom-actuator -- /opt/java/bin/java -Xmx256m -cp @/app/jib-classpath-file dev.kubeheadroom.cli.Main explain team-a/web-1 -o json "
        + "--kafka-bootstrap-servers=kafka:9092 --topic-prefix=eu. "
        + "--kafka-client-properties=/etc/headroom/kafka/client.properties");
  }

  @Test
  void aFlagTheUserGaveIsNotAddedAgain() throws Exception {
    Run r = plugin(Map.of(), "audit", "--at", "2026-03-01T12:00:00Z", "--node", "n1", "--topic-prefix", "us.");

    assertThat(r.out()).contains("--topic-prefix us.").doesNotContain("--topic-prefix=eu.")
        .contains("--kafka-bootstrap-servers=kafka:9092");
  }

  @Test
  void theChartsAuditIdentityReplacesTheActuatorsLogin() throws Exception {
    Run r = plugin(Map.of("AUDIT_PROPERTIES", "/etc/headroom/audit-kafka/client.properties"),
        "audit", "--at", "2026-03-01T12:00:00Z", "--node", "n1");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("--kafka-client-properties=/etc/headroom/audit-kafka/client.properties")
        .doesNotContain("/etc/headroom/kafka/client.properties").contains("--kafka-bootstrap-servers=kafka:9092");
    // a properties file the user gives still wins
    Run own = plugin(Map.of("AUDIT_PROPERTIES", "/etc/headroom/audit-kafka/client.properties"),
        "explain", "a/b", "--kafka-client-properties", "/tmp/mine.properties");
    assertThat(own.out()).doesNotContain("audit-kafka").contains("--kafka-client-properties /tmp/mine.properties");
  }

  @Test
  void otherCommandsGetNoKafkaFlagsAndAllInOneIsFoundToo() throws Exception {
    Run r = plugin(Map.of("AIO", "1", "KUBECTL_HEADROOM_NAMESPACE", "ops", "KUBECTL_HEADROOM_CONTEXT", "prod"),
        "completion", "bash");

    assertThat(r.out().strip()).isEqualTo("EXEC --namespace ops --context prod exec --container headroom --stdin "
        + "deployment/kube-headroom-all-in-one -- /opt/java/bin/java -Xmx256m -cp @/app/jib-classpath-file dev.kubeheadroom.cli.Main completion bash");
  }

  @Test
  void noReleaseIsExitCodeUnavailableWithAMessage() throws Exception {
    Run r = plugin(Map.of("KUBECTL_HEADROOM_RELEASE", "nope"), "explain", "a/b");

    assertThat(r.code()).isEqualTo(4);
    assertThat(r.err()).contains("no deployment/nope-actuator");
    assertThat(Files.readString(log)).doesNotContain(" exec ");
  }

  @Test
  void krewManifestPinsTheArchiveThePackageScriptBuilds() throws Exception {
    Process p = new ProcessBuilder(Charts.DEPLOY.resolve("krew/package").toString(), tmp.resolve("krew").toString())
        .redirectErrorStream(true).start();
    String sha = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(sha).isZero();

    JsonNode manifest = new ObjectMapper(new YAMLFactory()).readTree(Charts.DEPLOY.resolve("krew/headroom.yaml").toFile());
    assertThat(manifest.get("kind").asText()).isEqualTo("Plugin");
    assertThat(manifest.at("/metadata/name").asText()).isEqualTo("headroom");
    JsonNode platform = manifest.at("/spec/platforms/0");
    assertThat(platform.get("sha256").asText()).as("re-run deploy/krew/package and update the manifest").isEqualTo(sha);
    assertThat(platform.get("bin").asText()).isEqualTo("kubectl-headroom");
    assertThat(platform.get("uri").asText()).contains("/" + manifest.at("/spec/version").asText() + "/")
        .endsWith("/kubectl-headroom.tar.gz");
  }

  private record Run(int code, String out, String err) {}

  private Run plugin(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(PLUGIN.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().remove("HEADROOM");
    pb.environment().put("PATH", tmp.resolve("bin") + ":/usr/bin:/bin");
    pb.environment().put("KUBECTL_LOG", log.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out, err);
  }
}
