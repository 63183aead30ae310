package dev.kubeheadroom.kubereal.differential;

import dev.kubeheadroom.kubereal.RealControlPlane;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The custom resources the product reads, installed on the real server (the double knows them). */
final class Crds {
  /** The product's CRD, as the chart's CRD chart installs it. */
  static final Path HEADROOM_CONFIG = Path.of("../deploy/crds/headroomconfigs.kube-headroom.dev.yaml");

  /**
   * VerticalPodAutoscaler, which ingest watches, as a minimal CRD. Its watch cache starts when the
   * CRD is established: a revision from before is older than the cache's window there, as an
   * informer's is after the window moved on.
   */
  static final String VPA = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: verticalpodautoscalers.autoscaling.k8s.io
        annotations: {api-approved.kubernetes.io: "https://github.com/kubernetes/kubernetes/pull/63797"}
      spec:
        group: autoscaling.k8s.io
        scope: Namespaced
        names: {plural: verticalpodautoscalers, singular: verticalpodautoscaler, kind: VerticalPodAutoscaler}
        versions:
        - name: v1
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      """;

  private Crds() {}

  /** Both CRDs, established. */
  static void install(RealControlPlane api) {
    try {
      establish(api, Serialization.unmarshal(Files.readString(HEADROOM_CONFIG), CustomResourceDefinition.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    establish(api, Serialization.unmarshal(VPA, CustomResourceDefinition.class));
  }

  private static void establish(RealControlPlane api, CustomResourceDefinition crd) {
    var crds = api.client().apiextensions().v1().customResourceDefinitions();
    crds.resource(crd).serverSideApply();
    // A CRD's first status can come before its conditions: no list yet is "not established yet".
    crds.withName(crd.getMetadata().getName()).waitUntilCondition(c -> c.getStatus() != null
        && c.getStatus().getConditions() != null && c.getStatus().getConditions().stream()
            .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 30, TimeUnit.SECONDS);
  }
}
