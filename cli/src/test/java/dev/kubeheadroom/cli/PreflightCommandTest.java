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
class PreflightCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  ApiServerDouble api;
  KubernetesClient seed;
  @TempDir
  Path temp;
  Path kubeconfig;

  @BeforeEach
  void aCleanCluster() {
    // Given: Kubernetes 1.35, a valid enforcing HeadroomConfig, team-a managed with a Deployment's
    // pod on a Linux node, cert-manager installed.
    api = ApiServerDouble.start();
    kubeconfig = temp.resolve("admin.kubeconfig");
    api.writeAdminKubeconfig(kubeconfig);
    seed = api.seedClient();
    headroomConfig(Map.of("dryRun", false));
    namespace("team-a", Map.of("kube-headroom.dev/mode", "managed"));
    namespace("team-b", Map.of());
    node("n1", Map.of("kubernetes.io/os", "linux"));
    pod("team-a", "web-7c9d-x1", "n1", "web-7c9d");
    seed.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("certificates.cert-manager.io").endMetadata()
        .withNewSpec().withGroup("cert-manager.io").withScope("Namespaced")
        .withNewNames().withKind("Certificate").withPlural("certificates").withSingular("certificate").endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true).endVersion()
        .endSpec().build()).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

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

  private CliRun preflight(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "preflight";
    all[1] = "--kubeconfig"; // the double, like a real server, answers 401 without credentials
    all[2] = kubeconfig.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.run(all);
  }

  private static List<Result> results(CliRun r) {
    try {
      return JSON.readValue(r.stdout(), new TypeReference<List<Result>>() { });
    } catch (IOException e) {
      throw new AssertionError("not a JSON array of results: " + r.stdout() + r.stderr(), e);
    }
  }

  private static Result row(List<Result> results, String check) {
    return results.stream().filter(r -> r.check().equals(check)).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + check + " in " + results));
  }

  private void headroomConfig(Map<String, Object> spec) {
    GenericKubernetesResource config = new GenericKubernetesResourceBuilder()
        .withApiVersion("kube-headroom.dev/v1alpha1").withKind("HeadroomConfig")
        .withNewMetadata().withName("cluster").withGeneration(1L).endMetadata()
        .withAdditionalProperties(Map.of("spec", spec)).build();
    seed.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config).createOr(c -> c.update());
  }

  private void namespace(String name, Map<String, String> labels) {
    seed.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels)
        .endMetadata().build()).create();
  }

  private void node(String name, Map<String, String> labels) {
    seed.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("16"))).endStatus().build()).create();
  }

  /** A Burstable pod on {@code node}; owned by ReplicaSet {@code replicaSet} when given. */
  private void pod(String namespace, String name, String node, String replicaSet) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("app").withImage("app")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("500m"))).endResources().endContainer()
        .endSpec();
    if (replicaSet != null) {
      pod.editMetadata().addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet")
          .withName(replicaSet).withUid("uid-" + replicaSet).withController(true).endOwnerReference().endMetadata();
    }
    seed.pods().inNamespace(namespace).resource(pod.build()).create();
  }

  private void quota(String namespace, String name, Map<String, String> hard) {
    Map<String, Quantity> quantities = new HashMap<>();
    hard.forEach((k, v) -> quantities.put(k, new Quantity(v)));
    seed.resourceQuotas().inNamespace(namespace).resource(new ResourceQuotaBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec().withHard(quantities).endSpec().build()).create();
  }

  /** A VPA on {@code kind/target}; {@code controlledValues} null means the default (RequestsAndLimits). */
  private void vpa(String namespace, String name, String kind, String target, String controlledValues) {
    Map<String, Object> spec = new HashMap<>();
    spec.put("targetRef", Map.of("apiVersion", "apps/v1", "kind", kind, "name", target));
    spec.put("updatePolicy", Map.of("updateMode", "Recreate"));
    if (controlledValues != null) {
      spec.put("resourcePolicy", Map.of("containerPolicies",
          List.of(Map.of("containerName", "*", "controlledValues", controlledValues))));
    }
    seed.genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER).inNamespace(namespace)
        .resource(new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.k8s.io/v1")
            .withKind("VerticalPodAutoscaler").withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
            .withAdditionalProperties(Map.of("spec", spec)).build())
        .create();
  }
}
