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


/**
 * {@code headroom preflight} against the API double: a clean cluster passes, then each failure of
 * the runbook's preflight is planted on its own and must show up in its row, with its fix and the
 * exit code.
 */
class PreflightCommandTest extends PreflightFixture {
  @Test
  void aCleanClusterPassesEveryCheckAndExitsZero() {
    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    List<Result> results = results(r);
    assertThat(results).extracting(Result::check).containsExactly("kubernetes-version", "headroom-config",
        "dry-run", "managed-namespaces", "resourcequota", "limitrange", "nodes", "vpa", "cert-manager");
    assertThat(results).allSatisfy(row -> assertThat(row.status()).as(row.toString()).isEqualTo(Status.PASS));
    assertThat(row(results, "kubernetes-version").finding()).contains("v1.35.0", "GA");
    assertThat(row(results, "managed-namespaces").finding()).isEqualTo("1 managed: team-a");
    assertThat(row(results, "nodes").finding()).startsWith("1 node running managed pods: none is Windows");
  }

  @Test
  void aLimitsCpuQuotaInAManagedNamespaceFailsWithThePatchThatDropsIt() {
    quota("team-a", "compute", Map.of("limits.cpu", "20", "requests.cpu", "10"));

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.BLOCKED);
    Result quota = row(results(r), "resourcequota");
    assertThat(quota.status()).isEqualTo(Status.FAIL);
    assertThat(quota.finding()).contains("team-a/compute (limits.cpu 20)", "403 Forbidden");
    assertThat(quota.fix()).contains("keep requests.cpu")
        .contains("kubectl patch resourcequota compute -n team-a --type json "
            + "-p '[{\"op\":\"remove\",\"path\":\"/spec/hard/limits.cpu\"}]'");
  }

  @Test
  void aLimitsCpuQuotaInAnUnmanagedNamespaceDoesNotFail() {
    quota("team-b", "compute", Map.of("limits.cpu", "20"));
    quota("team-a", "requests-only", Map.of("requests.cpu", "10"));

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isZero();
    assertThat(row(results(r), "resourcequota").status()).isEqualTo(Status.PASS);
  }

  @Test
  void aLimitRangeMaxInAManagedNamespaceWarnsThatLimitsWillPlateau() {
    seed.limitRanges().inNamespace("team-a").resource(new LimitRangeBuilder()
        .withNewMetadata().withName("caps").withNamespace("team-a").endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity("4"))).endLimit()
        .endSpec().build()).create();

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isZero();
    Result limitRange = row(results(r), "limitrange");
    assertThat(limitRange.status()).isEqualTo(Status.WARN);
    assertThat(limitRange.finding())
        .isEqualTo("limits will plateau at 4 in team-a (LimitRange caps, Container max.cpu)");
    assertThat(limitRange.fix()).contains("raise or remove max.cpu");
  }

  @Test
  void windowsStaticCpuManagerAndOldKubeletNodesRunningManagedPodsWarnThatTheirPodsStayUnmanaged() {
    node("win-1", Map.of("kubernetes.io/os", "windows"));
    node("numa-1", Map.of("kubernetes.io/os", "linux", "kube-headroom.dev/cpu-manager-policy", "static"));
    seed.nodes().resource(new NodeBuilder().withNewMetadata().withName("old-1").endMetadata()
        .withNewStatus().withNewNodeInfo().withKubeletVersion("v1.32.1").withOperatingSystem("linux").endNodeInfo()
        .endStatus().build()).create();
    node("idle-win", Map.of("kubernetes.io/os", "windows"));
    pod("team-a", "iis-1", "win-1", null);
    pod("team-a", "trainer-1", "numa-1", null);
    pod("team-a", "legacy-1", "old-1", null);

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isZero();
    Result nodes = row(results(r), "nodes");
    assertThat(nodes.status()).isEqualTo(Status.WARN);
    // idle-win runs no managed pod, so it is not in the managed set.
    assertThat(nodes.finding()).contains("3 of 4 nodes running managed pods excluded, their pods stay unmanaged")
        .contains("win-1 (Windows)")
        .contains("numa-1 (static CPU/Memory Manager: kube-headroom.dev/cpu-manager-policy=static)")
        .contains("old-1 (kubelet v1.32.1, no in-place resize before 1.33)")
        .doesNotContain("idle-win");
  }

  @Test
  void everyNodeOfTheManagedSetExcludedFails() {
    seed.nodes().withName("n1").edit(n -> new NodeBuilder(n).editMetadata()
        .addToLabels("cpumanager", "true").endMetadata().build());

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.BLOCKED);
    Result nodes = row(results(r), "nodes");
    assertThat(nodes.status()).isEqualTo(Status.FAIL);
    assertThat(nodes.finding()).isEqualTo("every node running managed pods is excluded, nothing can be resized: "
        + "n1 (static CPU/Memory Manager: cpumanager=true)");
  }

  @Test
  void aVpaThatControlsLimitsWarnsAndNamesTheDeploymentPodsItTargets() {
    vpa("team-a", "web", "Deployment", "web", null);
    pod("team-a", "web-7c9d-x2", "n1", "web-7c9d");
    pod("team-a", "api-55f6-y1", "n1", "api-55f6");

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isZero();
    Result vpa = row(results(r), "vpa");
    assertThat(vpa.status()).isEqualTo(Status.WARN);
    assertThat(vpa.finding()).contains("team-a/web (Deployment web; pods: web-7c9d-x1, web-7c9d-x2)")
        .doesNotContain("api-55f6");
    assertThat(vpa.fix()).contains("controlledValues: RequestsOnly");
  }

  @Test
  void aRequestsOnlyVpaPasses() {
    vpa("team-a", "web", "Deployment", "web", "RequestsOnly");

    CliRun r = preflight("--output", "json");

    Result vpa = row(results(r), "vpa");
    assertThat(vpa.status()).isEqualTo(Status.PASS);
    assertThat(vpa.finding()).isEqualTo("1 VPA in the managed namespaces, none controls limits");
  }

  @Test
  void missingCertManagerWarnsWhileTheWebhookIsEnabledAndPassesWithANoteWhenItIsNot() {
    seed.apiextensions().v1().customResourceDefinitions().withName("certificates.cert-manager.io").delete();

    Result enabled = row(results(preflight("--output", "json")), "cert-manager");
    headroomConfig(Map.of("dryRun", false, "webhook", Map.of("enabled", false)));
    Result disabled = row(results(preflight("--output", "json")), "cert-manager");

    assertThat(enabled.status()).isEqualTo(Status.WARN);
    assertThat(enabled.finding()).contains("cert-manager is not installed", "webhook's serving certificate");
    assertThat(enabled.fix()).contains("helm install cert-manager", "spec.webhook.enabled: false");
    assertThat(disabled.status()).isEqualTo(Status.PASS);
    assertThat(disabled.finding()).contains("not needed while spec.webhook.enabled is false");
  }

  @Test
  void kubernetesBefore133FailsAndABetaResizeServerWarns() {
    api.version(ServerVersion.of("v1.32.4"));
    CliRun old = preflight("--output", "json");
    api.version(new ServerVersion("1", "34+", "v1.34.1-eks-f69f56f"));
    CliRun beta = preflight("--output", "json");

    assertThat(old.exitCode()).isEqualTo(ExitCodes.BLOCKED);
    Result oldRow = row(results(old), "kubernetes-version");
    assertThat(oldRow.status()).isEqualTo(Status.FAIL);
    assertThat(oldRow.finding()).contains("v1.32.4");
    assertThat(oldRow.fix()).contains(">= 1.35");
    assertThat(beta.exitCode()).isZero();
    Result betaRow = row(results(beta), "kubernetes-version");
    assertThat(betaRow.status()).isEqualTo(Status.WARN);
    assertThat(betaRow.finding()).contains("v1.34.1-eks-f69f56f", "InPlacePodVerticalScaling");
  }

  @Test
  void anInvalidHeadroomConfigFailsWithTheReadersReasonAndTheDefaultsJudgeTheRest() {
    headroomConfig(Map.of("dryRun", false, "maxMultiplier", "150"));

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.BLOCKED);
    List<Result> results = results(r);
    Result config = row(results, "headroom-config");
    assertThat(config.status()).isEqualTo(Status.FAIL);
    assertThat(config.finding()).contains("spec.maxMultiplier: must be at most 100, got \"150\"");
    assertThat(config.fix()).contains("correct spec.maxMultiplier");
    assertThat(row(results, "dry-run").finding()).isEqualTo("dry-run: nothing will be patched until dryRun: false");
  }

  @Test
  void noHeadroomConfigWarnsAndMeansDryRun() {
    seed.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName("cluster").delete();

    CliRun r = preflight("--output", "json");

    assertThat(r.exitCode()).isZero();
    List<Result> results = results(r);
    assertThat(row(results, "headroom-config").status()).isEqualTo(Status.WARN);
    Result dryRun = row(results, "dry-run");
    assertThat(dryRun.status()).isEqualTo(Status.PASS);
    assertThat(dryRun.finding()).isEqualTo("dry-run: nothing will be patched until dryRun: false");
    assertThat(dryRun.fix()).contains("kubectl patch hcfg cluster");
  }

  @Test
  void noManagedNamespaceWarnsWithTheLabelCommandAndNamesAModeThatManagesNothing() {
    seed.namespaces().withName("team-a").edit(ns -> new NamespaceBuilder(ns).editMetadata()
        .addToLabels("kube-headroom.dev/mode", "true").endMetadata().build());

    CliRun r = preflight("--output", "json");

    Result managed = row(results(r), "managed-namespaces");
    assertThat(managed.status()).isEqualTo(Status.WARN);
    assertThat(managed.finding()).contains("no namespace is managed", "team-a (mode=true)");
    assertThat(managed.fix()).isEqualTo("kubectl label ns <namespace> kube-headroom.dev/mode=managed");
  }
}
