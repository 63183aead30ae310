package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PATCH on pods/resize, as docs/design/headroom-design.txt §4.1 describes the real API server's behaviour. */
class ResizeSubresourceTest {
  private ApiServerDouble api;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private Pod create(Pod pod) {
    return client.pods().inNamespace(NS).resource(pod).create();
  }

  private Pod resize(Pod body) {
    return client.pods().inNamespace(NS).resource(body).subresource("resize").patch(headroomApply());
  }

  @Test
  void serverSideApplyOfACpuLimitChangesOnlyThatLimitAndBumpsGeneration() {
    // given
    Pod before = create(burstable("web-1", "n1", "500m", "1"));
    // when
    Pod after = resize(cpuLimitOnly("web-1", "app", "2500m"));
    // then
    var resources = after.getSpec().getContainers().get(0).getResources();
    assertThat(resources.getLimits()).containsEntry("cpu", new Quantity("2500m"))
        .containsEntry("memory", new Quantity("256Mi"));
    assertThat(resources.getRequests()).containsEntry("cpu", new Quantity("500m"));
    assertThat(after.getSpec().getContainers().get(0).getImage()).isEqualTo("registry.example/app:1");
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration() + 1);
    assertThat(Long.parseLong(after.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(before.getMetadata().getResourceVersion()));
    assertThat(client.pods().inNamespace(NS).withName("web-1").get().getSpec().getContainers().get(0)
        .getResources().getLimits()).containsEntry("cpu", new Quantity("2500m"));
  }

  @Test
  void cpuQuantitiesAreStoredInCanonicalForm() {
    // given
    create(burstable("web-1", "n1", "0.5", "1000m"));
    // when
    Pod after = resize(cpuLimitOnly("web-1", "app", "1.5"));
    // then: "0.5" → "500m", "1.5" → "1500m" as the API server stores them
    var resources = after.getSpec().getContainers().get(0).getResources();
    assertThat(resources.getRequests().get("cpu").toString()).isEqualTo("500m");
    assertThat(resources.getLimits().get("cpu").toString()).isEqualTo("1500m");
  }

  @Test
  void aResizeThatChangesNothingWritesNothing() {
    // given
    Pod before = create(burstable("web-1", "n1", "500m", "1"));
    // when: the same limit, spelled differently
    Pod after = resize(cpuLimitOnly("web-1", "app", "1000m"));
    // then: a real server skips the etcd write of a no-op patch, so no new resourceVersion
    assertThat(after.getMetadata().getResourceVersion()).isEqualTo(before.getMetadata().getResourceVersion());
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration());
  }

  @Test
  void aCpuLimitCanBeAddedToABurstablePodThatHasNone() {
    // given: docs/design/headroom-design.txt §4.1, spike Q2b
    create(burstable("web-1", "n1", "500m", null));
    // when
    Pod after = resize(cpuLimitOnly("web-1", "app", "2"));
    // then
    assertThat(after.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("2"));
    assertThat(after.getStatus().getQosClass()).isEqualTo("Burstable");
  }

  @Test
  void resizingAPodThatDoesNotExistAnswers404() {
    assertThatThrownBy(() -> resize(cpuLimitOnly("ghost", "app", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void aResizeThatWouldMakeABurstablePodGuaranteedIsRefusedWith422() {
    // given: cpu 500m/1, memory 256Mi/256Mi
    create(burstable("web-1", "n1", "500m", "1"));
    // when / then: cpu limit == request makes every request equal its limit → Guaranteed
    assertThatThrownBy(() -> resize(cpuLimitOnly("web-1", "app", "500m")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("Pod QOS Class may not change as a result of resizing");
        });
    assertThat(api.pod(NS, "web-1").orElseThrow().getSpec().getContainers().get(0).getResources()
        .getLimits()).containsEntry("cpu", new Quantity("1"));
  }

  @Test
  void aCpuLimitBelowTheRequestIsRefusedWith422() {
    create(burstable("web-1", "n1", "500m", "1"));
    assertThatThrownBy(() -> resize(cpuLimitOnly("web-1", "app", "250m")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("must be less than or equal to cpu limit of 250m");
        });
  }

  @Test
  void addingResourcesToABestEffortPodIsRefusedWith422() {
    create(TestPods.bestEffort("batch-1", "n1"));
    assertThatThrownBy(() -> resize(cpuLimitOnly("batch-1", "app", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("Pod QOS Class may not change");
        });
  }

  @Test
  void aResizeNamingAnUnknownContainerIsRefusedWith422() {
    create(burstable("web-1", "n1", "500m", "1"));
    assertThatThrownBy(() -> resize(cpuLimitOnly("web-1", "sidecar", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("spec.containers[name=sidecar]");
        });
  }

  @Test
  void aResizeThatAlsoChangesTheImageIsRefusedWith422() {
    // Deviation: a real API server silently drops non-resource changes sent to pods/resize;
    // the double refuses them so that a client sending more than resources is caught.
    create(burstable("web-1", "n1", "500m", "1"));
    Pod body = new PodBuilder(cpuLimitOnly("web-1", "app", "2")).editSpec().editFirstContainer()
        .withImage("registry.example/app:2").endContainer().endSpec().build();
    assertThatThrownBy(() -> resize(body))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
  }

  @Test
  void removingALimitIsRefusedWith422() {
    create(burstable("web-1", "n1", "500m", "1"));
    String patch = "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":null}}}]}}";
    assertThatThrownBy(() -> client.pods().inNamespace(NS).withName("web-1").subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("resources.limits[cpu]").contains("cannot be removed");
        });
  }

  @Test
  void aUidInThePatchBodyThatDoesNotMatchIsRefusedAsImmutable() {
    // A PATCH carries no precondition (only a PUT's gives 409 "Precondition failed"); a uid in the
    // body is a change of metadata.uid, which ValidateObjectMetaUpdate refuses
    // (staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go, run by rest.BeforeUpdate).
    // The double answered 409 before; a real server answers 422.
    create(burstable("web-1", "n1", "500m", "1"));
    Pod body = new PodBuilder(cpuLimitOnly("web-1", "app", "2")).editMetadata()
        .withUid("00000000-0000-0000-0000-000000000000").endMetadata().build();
    assertThatThrownBy(() -> resize(body))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("metadata.uid: Invalid value: "
              + "\"00000000-0000-0000-0000-000000000000\": field is immutable");
        });
    assertThat(api.pod(NS, "web-1").orElseThrow().getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1"));
  }

  @Test
  void aStaleResourceVersionInThePatchBodyIsAConflict() {
    // The store's optimistic concurrency (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
    // Update): a resourceVersion in the object that is not the stored one is 409.
    Pod created = create(burstable("web-1", "n1", "500m", "1"));
    resize(cpuLimitOnly("web-1", "app", "2"));
    Pod body = new PodBuilder(cpuLimitOnly("web-1", "app", "3")).editMetadata()
        .withResourceVersion(created.getMetadata().getResourceVersion()).endMetadata().build();
    assertThatThrownBy(() -> resize(body))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getMessage()).contains("the object has been modified");
        });
  }

  @Test
  void aMatchingUidPreconditionIsAccepted() {
    Pod created = create(burstable("web-1", "n1", "500m", "1"));
    Pod body = new PodBuilder(cpuLimitOnly("web-1", "app", "2")).editMetadata()
        .withUid(created.getMetadata().getUid()).endMetadata().build();
    assertThat(resize(body).getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("2"));
  }

  @Test
  void strategicMergeResizeChangesTheNamedContainersLimit() {
    create(burstable("web-1", "n1", "500m", "1"));
    String patch = "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"3\"}}}]}}";
    Pod after = client.pods().inNamespace(NS).withName("web-1").subresource("resize")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    assertThat(after.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("3")).containsEntry("memory", new Quantity("256Mi"));
  }

  @Test
  void jsonMergeResizeReplacesTheContainerListSoItMustCarryWholeResources() {
    // RFC 7386 replaces lists: a merge patch carrying only the cpu limit would drop the requests
    // and the memory limit, which a real server refuses; the whole resources object works.
    create(burstable("web-1", "n1", "500m", "1"));
    String partial = "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"3\"}}}]}}";
    assertThatThrownBy(() -> client.pods().inNamespace(NS).withName("web-1").subresource("resize")
        .patch(PatchContext.of(PatchType.JSON_MERGE), partial))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
    Pod current = client.pods().inNamespace(NS).withName("web-1").get();
    var whole = new PodBuilder(current).editSpec().editFirstContainer().editResources()
        .addToLimits("cpu", new Quantity("3")).endResources().endContainer().endSpec().build();
    String patch = "{\"spec\":{\"containers\":" + io.fabric8.kubernetes.client.utils.Serialization
        .asJson(whole.getSpec().getContainers()) + "}}";
    Pod after = client.pods().inNamespace(NS).withName("web-1").subresource("resize")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    assertThat(after.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("3"));
  }

  @Test
  void applyWithoutForceConflictsWithALimitAnotherManagerSet() {
    // given: a VPA-like manager set the cpu limit first
    create(burstable("web-1", "n1", "500m", "1"));
    client.pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2")).subresource("resize")
        .patch(new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager("someone-else").withForce(true).build());
    // when / then
    PatchContext noForce = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager("headroom").withForce(false).build();
    assertThatThrownBy(() -> client.pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(noForce))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getMessage()).contains("conflict with \"someone-else\"");
        });
    // and with force headroom takes the field over
    assertThat(resize(cpuLimitOnly("web-1", "app", "3")).getSpec().getContainers().get(0).getResources()
        .getLimits()).containsEntry("cpu", new Quantity("3"));
  }

  @Test
  void anApplyThatOmitsALimitTheSameManagerAppliedBeforeTriesToRemoveItAndIsRefused() {
    // given: a two-container pod; headroom applied limits for both
    Pod pod = new PodBuilder(burstable("web-1", "n1", "500m", "1")).editSpec()
        .addNewContainer().withName("side").withImage("registry.example/side:1").withNewResources()
        .addToRequests("cpu", new Quantity("100m")).addToLimits("cpu", new Quantity("200m"))
        .endResources().endContainer().endSpec().build();
    create(pod);
    Pod both = new PodBuilder(cpuLimitOnly("web-1", "app", "2")).editSpec().addNewContainer()
        .withName("side").withNewResources().addToLimits("cpu", new Quantity("400m")).endResources()
        .endContainer().endSpec().build();
    resize(both);
    // when: the next apply names only "app"
    // then: SSA would remove side's limit (owned only by headroom), and limits cannot be removed
    assertThatThrownBy(() -> resize(cpuLimitOnly("web-1", "app", "3")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("spec.containers[1].resources.limits[cpu]");
        });
  }
}
