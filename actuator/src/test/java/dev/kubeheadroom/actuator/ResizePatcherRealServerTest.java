package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The actuator's resize try ({@link ResizePatcher}) against a real kube-apiserver, as the
 * actuator's ServiceAccount with the chart's grants (get, patch pods; patch pods/resize): what
 * the server does with the product's apply, and how the product reads each refusal.
 */
@WithRealKubernetes
class ResizePatcherRealServerTest {
  /** Its own namespaces on the shared server: a rerun of the class gets fresh ones. */
  private static final String NS = "actuator-real-" + Long.toString(System.nanoTime() % 100_000, 36);
  private static RealControlPlane api;
  private static ActuatorClient client;
  private static ResizePatcher patcher;

  @BeforeAll
  static void start(RealControlPlane real) {
    api = real;
    // the node the pods are bound to: a real server refuses a resize of a pod whose node is
    // missing, or whose requests exceed the node's allocatable
    if (api.client().nodes().withName("n1").get() == null) {
      Node node = api.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata()
          .build()).create();
      Map<String, Quantity> size = Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"));
      node.setStatus(new NodeStatusBuilder().withCapacity(size).withAllocatable(size).build());
      api.client().nodes().resource(node).updateStatus();
    }
    for (String ns : List.of(NS, NS + "-quota", NS + "-limits")) {
      api.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      grantTheActuatorsRole(ns);
    }
    client = ActuatorClient.connect(api.configAs(NS, "actuator"));
    patcher = new ResizePatcher(client);
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
  }

  /** The chart's actuator ClusterRole (deploy/README.md's grants table), bound in {@code ns}. */
  private static void grantTheActuatorsRole(String ns) {
    KubernetesClient admin = api.client();
    admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("actuator").endMetadata()
        .withRules(new PolicyRuleBuilder().withApiGroups("").withResources("pods").withVerbs("get", "patch").build(),
            new PolicyRuleBuilder().withApiGroups("").withResources("pods/resize").withVerbs("patch").build())
        .build()).create();
    admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder()
        .withNewMetadata().withName("actuator").endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("actuator").endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName("actuator").withNamespace(NS).endSubject().build())
        .create();
  }

  private static Container container(String name, String request, String limit) {
    return new ContainerBuilder().withName(name).withImage("registry.k8s.io/pause:3.10").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(request), "memory", new Quantity("64Mi")))
        .withLimits(Map.of("cpu", new Quantity(limit), "memory", new Quantity("64Mi")))
        .endResources().build();
  }

  private static Pod pod(String ns, String name, Container... containers) {
    return api.client().pods().inNamespace(ns).resource(new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withNewSpec().withNodeName("n1").withContainers(containers).endSpec().build()).create();
  }

  private static PodWork work(Pod pod, PodChange change) {
    NodeDecision decision = decision("n1", false, change);
    return PodWork.of(1, decision, change, new TopicPartition("decisions", 0), 0);
  }

  private static PodWork work(Pod pod, long from, long to) {
    return work(pod, change(pod.getMetadata().getUid(), pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(), from, to));
  }

  private static String cpuLimit(String ns, String name, int container) {
    return api.client().pods().inNamespace(ns).withName(name).get().getSpec().getContainers().get(container)
        .getResources().getLimits().get("cpu").toString();
  }

  @Test
  void anAppliedResizeChangesTheLimitAndLeavesTheRequest() {
    Pod pod = pod(NS, "grow", container("app", "500m", "1"));
    ResizePatcher.Attempt attempt = patcher.resize(work(pod, 1000, 2500), LimitRangeCaps.NONE);
    assertThat(attempt.verdict()).isEqualTo(new Verdict.Final(OutcomeResult.APPLIED, ""));
    assertThat(attempt.patchSent()).isTrue();
    assertThat(cpuLimit(NS, "grow", 0)).isEqualTo("2500m");
    assertThat(api.client().pods().inNamespace(NS).withName("grow").get().getSpec().getContainers().get(0)
        .getResources().getRequests().get("cpu")).hasToString("500m");
    // the same change again is seen at its target: no second request
    assertThat(patcher.resize(work(pod, 1000, 2500), LimitRangeCaps.NONE).patchSent()).isFalse();
  }

  @Test
  void aResizeOfOneContainerKeepsTheOtherOwnedLimitsAndResizesSidecars() {
    Container sidecar = new ContainerBuilder(container("proxy", "100m", "200m")).withRestartPolicy("Always").build();
    Pod pod = api.client().pods().inNamespace(NS).resource(new PodBuilder()
        .withNewMetadata().withName("two").withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName("n1").withInitContainers(sidecar)
        .withContainers(container("app", "500m", "1"), container("log", "100m", "300m")).endSpec().build()).create();
    PodChange change = change(pod.getMetadata().getUid(), NS, "two", 1300, 2600,
        new ContainerChange("app", 1000, 2000), new ContainerChange("proxy", 200, 400));
    assertThat(patcher.resize(work(pod, change), LimitRangeCaps.NONE).verdict())
        .isEqualTo(new Verdict.Final(OutcomeResult.APPLIED, ""));
    Pod after = api.client().pods().inNamespace(NS).withName("two").get();
    assertThat(after.getSpec().getContainers()).extracting(c -> c.getResources().getLimits().get("cpu").toString())
        .containsExactly("2", "300m");
    assertThat(after.getSpec().getInitContainers().get(0).getResources().getLimits().get("cpu")).hasToString("400m");
  }

  @Test
  void aResizeBeyondTheQuotaIsQuotaDenied() {
    String ns = NS + "-quota";
    ResourceQuota quota = api.client().resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder()
        .withNewMetadata().withName("compute").endMetadata()
        .withNewSpec().withHard(Map.of("limits.cpu", new Quantity("2"))).endSpec().build()).create();
    // no quota controller runs: write the status it would, which the admission plugin reads
    quota.setStatus(new ResourceQuotaStatusBuilder().withHard(Map.of("limits.cpu", new Quantity("2")))
        .withUsed(Map.of("limits.cpu", new Quantity("0"))).build());
    api.client().resourceQuotas().inNamespace(ns).resource(quota).updateStatus();
    Pod pod = pod(ns, "web", container("app", "500m", "1"));
    Verdict verdict = patcher.resize(work(pod, 1000, 3000), LimitRangeCaps.NONE).verdict();
    assertThat(verdict).isInstanceOfSatisfying(Verdict.Final.class, f -> {
      assertThat(f.result()).isEqualTo(OutcomeResult.QUOTA_DENIED);
      assertThat(f.message()).contains("exceeded quota: compute");
    });
    assertThat(cpuLimit(ns, "web", 0)).isEqualTo("1");
  }

  @Test
  void aResizeAboveTheLimitRangeIsRejectedBeforeItIsSentOrRefusedByTheServer() {
    String ns = NS + "-limits";
    api.client().limitRanges().inNamespace(ns).resource(new LimitRangeBuilder()
        .withNewMetadata().withName("caps").endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity("2"))).endLimit()
        .endSpec().build()).create();
    Pod pod = pod(ns, "web", container("app", "500m", "1"));
    // with the caps ingest published, the gate rejects it without a request
    ResizePatcher.Attempt gated = patcher.resize(work(pod, 1000, 3000), new LimitRangeCaps(2000, 0, 0));
    assertThat(gated.verdict()).isInstanceOf(Verdict.Rejected.class);
    assertThat(gated.patchSent()).isFalse();
    // before ingest has published them, the server's LimitRanger refuses it: a final error
    ResizePatcher.Attempt refused = patcher.resize(work(pod, 1000, 3000), LimitRangeCaps.NONE);
    assertThat(refused.patchSent()).isTrue();
    assertThat(refused.verdict()).isInstanceOfSatisfying(Verdict.Final.class, f -> {
      assertThat(f.result()).isEqualTo(OutcomeResult.ERROR);
      assertThat(f.message()).contains("maximum cpu usage per Container is 2, but limit is 3");
    });
  }

  @Test
  void aResizeTheServerFindsInvalidIsAnErrorWithItsMessage() {
    // a Guaranteed pod's limit above its request would make it Burstable: 422
    Pod pod = pod(NS, "guaranteed", container("app", "1", "1"));
    Verdict verdict = patcher.resize(work(pod, 1000, 2000), LimitRangeCaps.NONE).verdict();
    assertThat(verdict).isInstanceOfSatisfying(Verdict.Final.class, f -> {
      assertThat(f.result()).isEqualTo(OutcomeResult.ERROR);
      assertThat(f.message()).startsWith("422: ");
    });
    assertThat(cpuLimit(NS, "guaranteed", 0)).isEqualTo("1");
  }

  @Test
  void aPodReplacedUnderTheSameNameIsGoneAndAMissingOneToo() {
    Pod pod = pod(NS, "replaced", container("app", "500m", "1"));
    PodWork stale = work(pod, change("0b5e0000-0000-0000-0000-000000000000", NS, "replaced", 1000, 2000));
    assertThat(patcher.resize(stale, LimitRangeCaps.NONE).verdict())
        .isInstanceOfSatisfying(Verdict.Final.class, f -> assertThat(f.result()).isEqualTo(OutcomeResult.GONE));
    PodWork missing = work(pod, change(pod.getMetadata().getUid(), NS, "missing", 1000, 2000));
    assertThat(patcher.resize(missing, LimitRangeCaps.NONE).verdict())
        .isInstanceOfSatisfying(Verdict.Final.class, f -> assertThat(f.result()).isEqualTo(OutcomeResult.GONE));
  }
}
