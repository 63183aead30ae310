package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PATCH on the pod itself, as Headroom uses it for its status annotation (docs/design/headroom-design.txt §8.1, §9.4). */
class PodMetadataPatchTest {
  private static final String STATUS = "kube-headroom.dev/status";
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private static Pod annotationOnly(String value) {
    return new PodBuilder().withNewMetadata().withName("web-1").withNamespace(NS)
        .addToAnnotations(STATUS, value).endMetadata().build();
  }

  private static PatchContext apply() {
    return new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager("headroom").withForce(true).build();
  }

  @Test
  void serverSideApplyOfAnAnnotationChangesOnlyThatAnnotation() {
    // given
    Pod before = api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    // when
    Pod after = api.client().pods().inNamespace(NS).resource(annotationOnly("limit=2 factor=4.0")).patch(apply());
    // then: metadata changed, resourceVersion bumped, generation (spec) not
    assertThat(after.getMetadata().getAnnotations()).containsEntry(STATUS, "limit=2 factor=4.0");
    assertThat(after.getSpec()).isEqualTo(before.getSpec());
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration());
    assertThat(after.getMetadata().getResourceVersion()).isNotEqualTo(before.getMetadata().getResourceVersion());
  }

  @Test
  void anAnnotationTheManagerNoLongerAppliesIsRemoved() {
    // given: headroom applied two annotations
    api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    api.client().pods().inNamespace(NS).resource(new PodBuilder(annotationOnly("a")).editMetadata()
        .addToAnnotations("kube-headroom.dev/extra", "x").endMetadata().build()).patch(apply());
    // when: it applies only one
    Pod after = api.client().pods().inNamespace(NS).resource(annotationOnly("b")).patch(apply());
    // then: SSA removes the field it owned and omitted
    assertThat(after.getMetadata().getAnnotations()).containsEntry(STATUS, "b")
        .doesNotContainKey("kube-headroom.dev/extra");
  }

  @Test
  void aJsonMergePatchOfAnAnnotationWorks() {
    api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    Pod after = api.client().pods().inNamespace(NS).withName("web-1").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + STATUS + "\":\"x\"}}}");
    assertThat(after.getMetadata().getAnnotations()).containsEntry(STATUS, "x");
  }

  /**
   * managedFields entries are per manager <em>and operation</em> (k8s.io/apiserver
   * pkg/endpoints/handlers/fieldmanager, structured-merge-diff's manager set): what "headroom"
   * merge-patched is its Update entry's, so its later apply on {@code pods/resize}, which omits the
   * annotation, neither owns nor removes it.
   */
  @Test
  void anAnnotationAManagerMergePatchedSurvivesItsLaterApply() {
    // given: headroom merge-patched the status annotation under its own field manager
    api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    api.client().pods().inNamespace(NS).resource(annotationOnly("limit=2"))
        .patch(new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager("headroom").build());
    // when: headroom applies a CPU limit on pods/resize
    Pod after = api.client().pods().inNamespace(NS).resource(TestPods.cpuLimitOnly("web-1", "app", "2"))
        .subresource("resize").patch(apply());
    // then
    assertThat(after.getMetadata().getAnnotations()).containsEntry(STATUS, "limit=2");
  }

  @Test
  void aPodPatchThatChangesTheSpecIsRefused() {
    // Deviation: a real server accepts a few spec changes on pods (image, tolerations...);
    // Headroom never makes them, so the double refuses every spec change with 422.
    api.client().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    assertThatThrownBy(() -> api.client().pods().inNamespace(NS).withName("web-1")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
            "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"2\"}}}]}}"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
  }

  @Test
  void patchingAPodThatDoesNotExistAnswers404() {
    assertThatThrownBy(() -> api.client().pods().inNamespace(NS).resource(annotationOnly("x")).patch(apply()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }
}
