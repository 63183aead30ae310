package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodProjectionTest {

  // --- helpers: a bound Burstable pod, containers built from "cpu=..,memory=.." maps ---

  static Container container(String name, Map<String, String> requests, Map<String, String> limits) {
    return new ContainerBuilder().withName(name).withImage("pause")
        .withNewResources().withRequests(quantities(requests)).withLimits(quantities(limits)).endResources()
        .build();
  }

  static Map<String, Quantity> quantities(Map<String, String> raw) {
    Map<String, Quantity> out = new HashMap<>();
    raw.forEach((k, v) -> out.put(k, new Quantity(v)));
    return out;
  }

  static PodBuilder pod(Container... containers) {
    return new PodBuilder()
        .withNewMetadata().withName("web-1").withNamespace("team-a").withUid("uid-1")
        .withResourceVersion("42").withGeneration(3L).endMetadata()
        .withNewSpec().withNodeName("n1").withContainers(containers).endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus();
  }

  static PodSnapshot project(Pod pod) {
    return PodProjection.project(pod, false).orElseThrow();
  }

  @Test
  void projectsIdentityNodePhaseQosAndVersionsOfABoundPod() {
    PodSnapshot snapshot = project(pod(container("app", Map.of("cpu", "500m"), Map.of())).build());

    assertThat(snapshot.uid()).isEqualTo("uid-1");
    assertThat(snapshot.ref()).isEqualTo("team-a/web-1");
    assertThat(snapshot.node()).isEqualTo("n1");
    assertThat(snapshot.phase()).isEqualTo("Running");
    assertThat(snapshot.qosClass()).isEqualTo("Burstable");
    assertThat(snapshot.resourceVersion()).isEqualTo("42");
    assertThat(snapshot.generation()).isEqualTo(3);
    assertThat(snapshot.containers()).containsExactly(
        new ContainerSnapshot("app", ContainerKind.APP, 500, 0, false, false));
  }

  @Test
  void ignoresAPodNotYetBoundToANode() {
    Pod unbound = pod(container("app", Map.of("cpu", "1"), Map.of())).editSpec().withNodeName(null).endSpec().build();
    Pod emptyNode = pod(container("app", Map.of("cpu", "1"), Map.of())).editSpec().withNodeName("").endSpec().build();

    assertThat(PodProjection.project(unbound, false)).isEmpty();
    assertThat(PodProjection.project(emptyNode, false)).isEmpty();
    assertThat(PodProjection.removed(unbound)).isEmpty();
  }

  @Test
  void listsInitContainersFirstAsSidecarWhenRestartPolicyIsAlwaysThenAppContainers() {
    Container init = container("migrate", Map.of("cpu", "2"), Map.of());
    Container sidecar = new ContainerBuilder(container("proxy", Map.of("cpu", "100m"), Map.of("cpu", "200m")))
        .withRestartPolicy("Always").build();
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of()))
        .editSpec().withInitContainers(init, sidecar).endSpec().build();

    List<ContainerSnapshot> containers = project(pod).containers();

    assertThat(containers).extracting(ContainerSnapshot::name).containsExactly("migrate", "proxy", "app");
    assertThat(containers).extracting(ContainerSnapshot::kind)
        .containsExactly(ContainerKind.INIT, ContainerKind.SIDECAR, ContainerKind.APP);
    assertThat(containers.get(1).cpuLimitMilli()).isEqualTo(200);
  }

  @Test
  void defaultsTheCpuRequestToTheLimitWhenOnlyALimitIsSet() {
    PodSnapshot snapshot = project(pod(container("app", Map.of(), Map.of("cpu", "1500m"))).build());

    assertThat(snapshot.containers().get(0).cpuRequestMilli()).isEqualTo(1500);
    assertThat(snapshot.containers().get(0).cpuLimitMilli()).isEqualTo(1500);
  }

  @Test
  void anExplicitRequestIsNotReplacedByTheLimit() {
    PodSnapshot snapshot = project(pod(container("app", Map.of("cpu", "250m"), Map.of("cpu", "1"))).build());

    assertThat(snapshot.containers().get(0).cpuRequestMilli()).isEqualTo(250);
    assertThat(snapshot.containers().get(0).cpuLimitMilli()).isEqualTo(1000);
  }

  @Test
  void memoryIsGuaranteedOnlyWhenRequestAndLimitAreEqualAfterDefaulting() {
    Pod pod = pod(
        container("equal", Map.of("cpu", "1", "memory", "1Gi"), Map.of("memory", "1024Mi")),
        container("defaulted", Map.of("cpu", "1"), Map.of("memory", "512Mi")),
        container("lower", Map.of("cpu", "1", "memory", "256Mi"), Map.of("memory", "512Mi")),
        container("request-only", Map.of("cpu", "1", "memory", "256Mi"), Map.of()))
        .build();

    assertThat(project(pod).containers()).extracting(ContainerSnapshot::memoryGuaranteed)
        .containsExactly(true, true, false, false);
  }

  @Test
  void marksContainersWhoseCpuResizeRestartsThem() {
    Container restarts = new ContainerBuilder(container("app", Map.of("cpu", "1"), Map.of()))
        .addNewResizePolicy().withResourceName("memory").withRestartPolicy("NotRequired").endResizePolicy()
        .addNewResizePolicy().withResourceName("cpu").withRestartPolicy("RestartContainer").endResizePolicy()
        .build();
    Container memoryOnly = new ContainerBuilder(container("side", Map.of("cpu", "1"), Map.of()))
        .addNewResizePolicy().withResourceName("memory").withRestartPolicy("RestartContainer").endResizePolicy()
        .build();

    assertThat(project(pod(restarts, memoryOnly).build()).containers())
        .extracting(ContainerSnapshot::cpuResizeRestarts).containsExactly(true, false);
  }

  @Test
  void marksAPodWhoseSpecResourcesSetsARequestOrALimit() {
    // pods/resize refuses a pod with pod-level resources (pkg/registry/core/pod/strategy.go, 422)
    Pod plain = pod(container("app", Map.of("cpu", "1"), Map.of())).build();
    Pod podLevel = new PodBuilder(plain).editSpec().withNewResources()
        .withLimits(quantities(Map.of("cpu", "4"))).endResources().endSpec().build();
    Pod emptyPodLevel = new PodBuilder(plain).editSpec().withNewResources().endResources().endSpec().build();

    assertThat(project(plain).podLevelResources()).isFalse();
    assertThat(project(podLevel).podLevelResources()).isTrue();
    assertThat(project(emptyPodLevel).podLevelResources()).isFalse();
  }

  @Test
  void takesTheQosClassFromStatusWhenPresent() {
    // A status the spec would not give (Guaranteed resources) wins: the API server is the authority.
    Pod pod = pod(container("app", Map.of("cpu", "1", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi")))
        .editStatus().withQosClass("Burstable").endStatus().build();

    assertThat(project(pod).qosClass()).isEqualTo("Burstable");
  }

  @Test
  void computesTheQosClassTheKubernetesWayWhenStatusLacksIt() {
    Pod burstable = pod(container("app", Map.of("cpu", "500m"), Map.of())).withStatus(null).build();
    Pod guaranteedByDefaulting = pod(container("app", Map.of(), Map.of("cpu", "1", "memory", "1Gi")))
        .withStatus(null).build();
    Pod guaranteedWithEqualUnits = pod(
        container("app", Map.of("cpu", "1000m", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1024Mi")))
        .withStatus(null).build();
    Pod bestEffort = pod(container("app", Map.of(), Map.of())).withStatus(null).build();
    Pod zeroIsUnset = pod(container("app", Map.of("cpu", "0"), Map.of())).withStatus(null).build();
    Pod oneContainerWithoutLimits = pod(
        container("a", Map.of(), Map.of("cpu", "1", "memory", "1Gi")),
        container("b", Map.of("cpu", "1"), Map.of())).withStatus(null).build();
    Pod initContainerCounts = pod(container("a", Map.of(), Map.of("cpu", "1", "memory", "1Gi")))
        .editSpec().withInitContainers(container("init", Map.of("cpu", "1"), Map.of())).endSpec()
        .withStatus(null).build();

    assertThat(project(burstable).qosClass()).isEqualTo("Burstable");
    assertThat(project(guaranteedByDefaulting).qosClass()).isEqualTo("Guaranteed");
    assertThat(project(guaranteedWithEqualUnits).qosClass()).isEqualTo("Guaranteed");
    assertThat(project(bestEffort).qosClass()).isEqualTo("BestEffort");
    assertThat(project(zeroIsUnset).qosClass()).isEqualTo("BestEffort");
    assertThat(project(oneContainerWithoutLimits).qosClass()).isEqualTo("Burstable");
    assertThat(project(initContainerCounts).qosClass()).isEqualTo("Burstable");
    assertThat(project(burstable).phase()).isEmpty();
  }

  @Test
  void readsTheModeLabelAndTheMaxCpuAnnotation() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of()))
        .editMetadata()
        .withLabels(Map.of("kube-headroom.dev/mode", "unmanaged"))
        .withAnnotations(Map.of("kube-headroom.dev/max-cpu", "2500m"))
        .endMetadata().build();

    PodSnapshot snapshot = project(pod);

    assertThat(snapshot.mode()).isEqualTo("unmanaged");
    assertThat(snapshot.maxCpuMilli()).isEqualTo(2500);
    assertThat(snapshot.maxCpuInvalid()).isNull();
  }

  @Test
  void anUnparseableMaxCpuIsKeptRawAndIgnoredNeverAnError() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of()))
        .editMetadata().withAnnotations(Map.of("kube-headroom.dev/max-cpu", "lots")).endMetadata().build();

    PodSnapshot snapshot = project(pod);

    assertThat(snapshot.maxCpuMilli()).isZero();
    assertThat(snapshot.maxCpuInvalid()).isEqualTo("lots");
  }

  @Test
  void readsTheGangAnnotationRawAndScopesItToTheNamespace() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of()))
        .editMetadata().withAnnotations(Map.of("kube-headroom.dev/gang", "train-7")).endMetadata().build();

    PodSnapshot snapshot = project(pod);

    assertThat(snapshot.gang()).isEqualTo("train-7");
    assertThat(dev.kubeheadroom.schemas.GangKey.of(snapshot, java.util.List.of()))
        .isEqualTo(snapshot.namespace() + "/train-7");
  }

  @Test
  void aPodWithoutLabelsOrAnnotationsHasNoModeAndNoCap() {
    PodSnapshot snapshot = project(pod(container("app", Map.of("cpu", "1"), Map.of())).build());

    assertThat(snapshot.gang()).isNull();
    assertThat(snapshot.mode()).isNull();
    assertThat(snapshot.maxCpuMilli()).isZero();
    assertThat(snapshot.maxCpuInvalid()).isNull();
  }

  @Test
  void readsResizeConditionsWithInfeasibleBeforeDeferredBeforeInProgress() {
    var inProgress = new PodConditionBuilder().withType("PodResizeInProgress").withStatus("True").build();
    var deferred = new PodConditionBuilder().withType("PodResizePending").withStatus("True").withReason("Deferred").build();
    var infeasible = new PodConditionBuilder().withType("PodResizePending").withStatus("True").withReason("Infeasible").build();
    var notTrue = new PodConditionBuilder().withType("PodResizeInProgress").withStatus("False").build();
    Container app = container("app", Map.of("cpu", "1"), Map.of());

    assertThat(project(pod(app).build()).resize()).isEqualTo(ResizeStatus.NONE);
    assertThat(project(pod(app).editStatus().withConditions(inProgress).endStatus().build()).resize())
        .isEqualTo(ResizeStatus.IN_PROGRESS);
    assertThat(project(pod(app).editStatus().withConditions(inProgress, deferred).endStatus().build()).resize())
        .isEqualTo(ResizeStatus.DEFERRED);
    assertThat(project(pod(app).editStatus().withConditions(infeasible, inProgress).endStatus().build()).resize())
        .isEqualTo(ResizeStatus.INFEASIBLE);
    assertThat(project(pod(app).editStatus().withConditions(notTrue).endStatus().build()).resize())
        .isEqualTo(ResizeStatus.NONE);
  }

  @Test
  void fallsBackToTheLegacyStatusResizeFieldWithoutConditions() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of())).editStatus().withResize("Infeasible").endStatus().build();

    assertThat(project(pod).resize()).isEqualTo(ResizeStatus.INFEASIBLE);
  }

  @Test
  void keepsOwnerReferencesAndTheVpaFactTheCallerSupplies() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of()))
        .editMetadata().addNewOwnerReference().withKind("ReplicaSet").withName("web-7c9d")
        .withUid("rs-1").withController(true).withApiVersion("apps/v1").endOwnerReference().endMetadata()
        .build();

    PodSnapshot snapshot = PodProjection.project(pod, true).orElseThrow();

    assertThat(snapshot.owners()).containsExactly(new OwnerRef("ReplicaSet", "web-7c9d", "rs-1", true));
    assertThat(snapshot.vpaControlsLimits()).isTrue();
  }

  @Test
  void aPodAtCreateProjectsAsBoundWithPlaceholdersForWhatTheApiServerHasNotFilledIn() {
    Pod bound = pod(container("app", Map.of("cpu", "500m"), Map.of()))
        .editMetadata().addToLabels("kube-headroom.dev/mode", "unmanaged").endMetadata().build();
    Pod atCreate = new PodBuilder(bound).editMetadata().withName(null).withGenerateName("web-")
        .withUid(null).withNamespace(null).endMetadata().editSpec().withNodeName(null).endSpec().build();

    PodSnapshot snapshot = PodProjection.atCreate(atCreate, "team-a");

    assertThat(snapshot.ref()).isEqualTo("team-a/" + PodProjection.NOT_YET);
    assertThat(snapshot.uid()).isEqualTo(PodProjection.NOT_YET);
    assertThat(snapshot.node()).isEqualTo(PodProjection.NOT_YET);
    assertThat(snapshot.vpaControlsLimits()).isFalse();
    // every fact a gate reads is the bound pod's
    PodSnapshot asBound = project(bound);
    assertThat(snapshot.mode()).isEqualTo(asBound.mode()).isEqualTo("unmanaged");
    assertThat(snapshot.containers()).isEqualTo(asBound.containers());
    assertThat(snapshot.qosClass()).isEqualTo(asBound.qosClass());
    assertThat(snapshot.podLevelResources()).isEqualTo(asBound.podLevelResources());
  }

  @Test
  void aDeletedBoundPodBecomesARemovalRecord() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of())).build();

    assertThat(PodProjection.removed(pod)).contains(new PodRemoved("uid-1", "team-a", "web-1", "n1"));
  }

  @Test
  void toleratesOddButValidPods() {
    Pod noResources = new PodBuilder(pod().build())
        .editSpec().withContainers(new ContainerBuilder().withName("app").build()).endSpec()
        .withStatus(null).build();
    Pod noContainers = new PodBuilder(pod().build()).editSpec().withContainers(List.of()).endSpec().build();

    assertThat(project(noResources).containers())
        .containsExactly(new ContainerSnapshot("app", ContainerKind.APP, 0, 0, false, false));
    assertThat(project(noResources).qosClass()).isEqualTo("BestEffort");
    assertThat(project(noContainers).containers()).isEmpty();
  }

  @Test
  void anInvalidCpuQuantityIsAProjectionErrorNamingThePodAndContainer() {
    Pod pod = pod(container("app", Map.of("cpu", "lots"), Map.of())).build();

    assertThatThrownBy(() -> project(pod))
        .isInstanceOf(ProjectionException.class)
        .hasMessage("Pod(team-a/web-1): container app: resources.requests.cpu: invalid quantity \"lots\": no digits");
  }

  @Test
  void aPodWithoutUidIsAProjectionError() {
    Pod pod = pod(container("app", Map.of("cpu", "1"), Map.of())).editMetadata().withUid(null).endMetadata().build();

    assertThatThrownBy(() -> project(pod)).isInstanceOf(ProjectionException.class)
        .hasMessageContaining("Pod(team-a/web-1)");
  }
}
