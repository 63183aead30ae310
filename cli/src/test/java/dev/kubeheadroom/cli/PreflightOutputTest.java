package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.cli.preflight.Result;
import dev.kubeheadroom.cli.preflight.Status;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.ServerVersion;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/** {@code headroom preflight}'s output formats and exit codes, like kubectl's. */
class PreflightOutputTest extends PreflightFixture {
  @Test
  void theDefaultIsATableLikeKubectlAndYamlCarriesTheJsonRows() throws Exception {
    CliRun table = preflight();
    CliRun yaml = preflight("-o", "yaml");

    assertThat(table.stdout()).startsWith("CHECK ").containsPattern("\\d+ passed, \\d+ warnings, 0 failed");
    List<Result> fromYaml = new com.fasterxml.jackson.databind.ObjectMapper(
        new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readValue(yaml.stdout(), new TypeReference<List<Result>>() { });
    assertThat(fromYaml).isEqualTo(results(preflight("--output", "json")));
  }

  @Test
  void jsonOutputIsAnArrayOfCheckStatusFindingAndFix() throws IOException {
    CliRun r = preflight("--output", "json");

    JsonNode array = JSON.readTree(r.stdout());
    assertThat(array.isArray()).isTrue();
    assertThat(array).hasSize(9);
    JsonNode first = array.get(0);
    assertThat(first.fieldNames()).toIterable().containsExactly("check", "status", "finding", "fix");
    assertThat(first.get("check").asText()).isEqualTo("kubernetes-version");
    assertThat(first.get("status").asText()).isEqualTo("PASS");
    assertThat(first.get("fix").isNull()).isTrue();
  }

  @Test
  void tableOutputHasAHeaderARowPerCheckAndTheTally() {
    quota("team-a", "compute", Map.of("limits.cpu", "20"));
    node("win-1", Map.of("kubernetes.io/os", "windows"));
    pod("team-a", "iis-1", "win-1", null);

    CliRun r = preflight("--output", "table");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.BLOCKED);
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(0)).matches("CHECK +\\| STATUS \\| FINDING +\\| FIX");
    assertThat(lines).filteredOn(l -> !l.startsWith(" ")).hasSize(1 + 9 + 1);
    assertThat(lines).filteredOn(l -> l.startsWith("resourcequota ")).singleElement().asString()
        .matches("resourcequota +\\| FAIL +\\| limits\\.cpu quota in managed namespaces: .* \\| drop limits\\.cpu .*");
    // A long finding continues under its own column; the fix stays on one line.
    assertThat(lines).anySatisfy(l -> assertThat(l).matches(" +\\| +\\| .*403 Forbidden"));
    assertThat(lines).filteredOn(l -> l.contains("|"))
        .allSatisfy(l -> assertThat(l.split("\\|")[2].strip()).hasSizeLessThanOrEqualTo(PreflightCommand.FINDING_WIDTH));
    assertThat(lines.get(lines.size() - 1)).isEqualTo("7 passed, 1 warnings, 1 failed");
  }

  @Test
  void anUnreachableApiServerIsOneLineAndExitCodeFour() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    CliRun r = CliRun.run("preflight", "--kube-api-url", "http://127.0.0.1:" + closedPort + "/");

    // Unavailable, not a usage error: the same command may pass once the server answers.
    assertThat(r.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines()).singleElement().asString()
        .startsWith("headroom preflight: cannot reach the Kubernetes API server at http://127.0.0.1:" + closedPort);
  }

  // ---- given helpers -------------------------------------------------------------------------
}
