package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CRD's CEL rules as a real kube-apiserver (cel-go) runs them: each of {@link CelCases} put
 * into the sample HeadroomConfig at its rule's path ({@link CelCases#object}) and created with
 * server-side dry run, which runs the whole validation (defaulting, the schema, then the rules) and
 * stores nothing. The verdict must be the one CEL-Java gives in {@link CelRulesTest} and the Java
 * validation in {@link JavaValidationAgreesTest}.
 */
@WithRealKubernetes
class CelRulesRealServerTest {
  private static final ResourceDefinitionContext HEADROOM_CONFIG = new ResourceDefinitionContext.Builder()
      .withGroup("kube-headroom.dev").withVersion("v1alpha1").withKind("HeadroomConfig")
      .withPlural("headroomconfigs").withNamespaced(false).build();
  private static RealControlPlane api;

  @BeforeAll
  static void installTheCrd(RealControlPlane real) throws Exception {
    api = real;
    CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(Charts.CRD_FILE),
        CustomResourceDefinition.class);
    api.client().apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    api.client().apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
        .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions().stream()
            .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 30, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kubeheadroom.deploy.CelCases#all")
  void theRealServerGivesTheSameVerdict(CelCases c) throws Exception {
    GenericKubernetesResource config = c.object();
    String refusal = null;
    try {
      api.client().genericKubernetesResources(HEADROOM_CONFIG).resource(config).dryRun().create();
    } catch (KubernetesClientException e) {
      assertThat(e.getCode()).as("a refusal is 422 Invalid: %s", e.getMessage()).isEqualTo(422);
      refusal = e.getStatus().getMessage();
    }
    assertThat(refusal == null).as("admitted by kube-apiserver (refusal: %s)", refusal).isEqualTo(c.admitted());
  }
}
