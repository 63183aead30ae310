package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HeadroomConfig CRD declares {@code subresources: status: {}}; the double serves it like a real server. */
class CustomResourceStatusTest {

  @Test
  void aMergePatchOfTheStatusSubresourceChangesOnlyStatusAndKeepsTheGeneration() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      var configs = api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
      configs.resource(config(Map.of("dryRun", true))).create();

      GenericKubernetesResource patched = configs.withName("cluster").subresource("status").patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"spec\":{\"dryRun\":false},\"status\":{\"observedGeneration\":1,\"managedPods\":3}}");

      GenericKubernetesResource stored = configs.withName("cluster").get();
      assertThat(stored.<Integer>get("status", "managedPods")).isEqualTo(3);
      assertThat(stored.<Boolean>get("spec", "dryRun")).isTrue();
      assertThat(stored.getMetadata().getGeneration()).isEqualTo(1L);
      assertThat(patched.<Integer>get("status", "observedGeneration")).isEqualTo(1);
      assertThat(api.requests().count(Verb.PATCH, "headroomconfigs", "status")).isEqualTo(1);
    }
  }

  @Test
  void aStatusPatchWithAFieldManagerIsStillAStatusWrite() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      var configs = api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
      configs.resource(config(Map.of("dryRun", true))).create();

      configs.withName("cluster").subresource("status").patch(
          new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager("headroom").build(),
          "{\"status\":{\"managedPods\":3}}");

      GenericKubernetesResource stored = configs.withName("cluster").get();
      assertThat(stored.<Integer>get("status", "managedPods")).isEqualTo(3);
      assertThat(stored.<Boolean>get("spec", "dryRun")).isTrue();
      assertThat(api.requests().count(Verb.PATCH, "headroomconfigs", "status")).isEqualTo(1);
    }
  }

  @Test
  void aMergePatchReplacesAStatusListAsRfc7386Says() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      var configs = api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
      configs.resource(config(Map.of())).create();
      var status = configs.withName("cluster").subresource("status");
      status.patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}],\"managedPods\":1}}");

      status.patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}");

      GenericKubernetesResource stored = configs.withName("cluster").get();
      assertThat(stored.<java.util.List<?>>get("status", "conditions")).hasSize(1);
      assertThat(stored.<String>get("status", "conditions", 0, "status")).isEqualTo("False");
      assertThat(stored.<Integer>get("status", "managedPods")).isEqualTo(1);
    }
  }

  @Test
  void aSpecUpdateBumpsTheGenerationAndLeavesTheStatusAlone() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      var configs = api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG);
      configs.resource(config(Map.of("dryRun", true))).create();
      configs.withName("cluster").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"status\":{\"managedPods\":3}}");

      configs.withName("cluster").patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"spec\":{\"dryRun\":false},\"status\":{\"managedPods\":99}}");

      GenericKubernetesResource stored = configs.withName("cluster").get();
      assertThat(stored.<Boolean>get("spec", "dryRun")).isFalse();
      assertThat(stored.<Integer>get("status", "managedPods")).isEqualTo(3);
      assertThat(stored.getMetadata().getGeneration()).isEqualTo(2L);
    }
  }

  private static GenericKubernetesResource config(Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder().withApiVersion("kube-headroom.dev/v1alpha1")
        .withKind("HeadroomConfig").withNewMetadata().withName("cluster").endMetadata()
        .withAdditionalProperties(Map.of("spec", spec)).build();
  }
}
