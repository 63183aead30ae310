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
import org.junit.jupiter.api.io.TempDir;

/**
 * A clean cluster on the API double for {@code headroom preflight}'s tests, and the helpers that
 * plant one problem at a time.
 */
abstract class PreflightFixture {
  static final ObjectMapper JSON = new ObjectMapper();

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

  CliRun preflight(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "preflight";
    all[1] = "--kubeconfig"; // the double, like a real server, answers 401 without credentials
    all[2] = kubeconfig.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.run(all);
  }

  static List<Result> results(CliRun r) {
    try {
      return JSON.readValue(r.stdout(), new TypeReference<List<Result>>() { });
    } catch (IOException e) {
      throw new AssertionError("not a JSON array of results: " + r.stdout() + r.stderr(), e);
    }
  }

  static Result row(List<Result> results, String check) {
    return results.stream().filter(r -> r.check().equals(check)).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + check + " in " + results));
  }

  void headroomConfig(Map<String, Object> spec) {
    GenericKubernetesResource config = new GenericKubernetesResourceBuilder()
        .withApiVersion("kube-headroom.dev/v1alpha1").withKind("HeadroomConfig")
        .withNewMetadata().withName("cluster").withGeneration(1L).endMetadata()
        .withAdditionalProperties(Map.of("spec", spec)).build();
    seed.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config).createOr(c -> c.update());
  }

  void namespace(String name, Map<String, String> labels) {
    seed.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels)
        .endMetadata().build()).create();
  }

  void node(String name, Map<String, String> labels) {
    seed.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("16"))).endStatus().build()).create();
  }

  /** A Burstable pod on {@code node}; owned by ReplicaSet {@code replicaSet} when given. */
  void pod(String namespace, String name, String node, String replicaSet) {
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

  void quota(String namespace, String name, Map<String, String> hard) {
    Map<String, Quantity> quantities = new HashMap<>();
    hard.forEach((k, v) -> quantities.put(k, new Quantity(v)));
    seed.resourceQuotas().inNamespace(namespace).resource(new ResourceQuotaBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec().withHard(quantities).endSpec().build()).create();
  }

  /** A VPA on {@code kind/target}; {@code controlledValues} null means the default (RequestsAndLimits). */
  void vpa(String namespace, String name, String kind, String target, String controlledValues) {
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
