package dev.kubeheadroom.kubereal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

@WithRealKubernetes
class RealControlPlaneTest {

  @Test
  void servesThePinnedVersion(RealControlPlane api) {
    assertThat(api.client().getKubernetesVersion().getGitVersion())
        .isEqualTo("v" + api.binaries().version());
  }

  @Test
  void serviceAccountTokensAuthenticateAndRbacDeniesWhatIsNotGranted(RealControlPlane api)
      throws Exception {
    api.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
        .withName("kube-real-smoke").endMetadata().build()).serverSideApply();
    try (KubernetesClient sa = api.clientAs("kube-real-smoke", "smoke")) {
      SelfSubjectReview review = sa.resource(new SelfSubjectReview()).create();
      assertThat(review.getStatus().getUserInfo().getUsername())
          .isEqualTo("system:serviceaccount:kube-real-smoke:smoke");
      assertThatThrownBy(() -> sa.pods().inNamespace("kube-real-smoke").list())
          .isInstanceOfSatisfying(KubernetesClientException.class,
              e -> assertThat(e.getCode()).isEqualTo(403));
    }
    assertThat(Files.readString(api.auditLog()))
        .contains("\"username\":\"system:serviceaccount:kube-real-smoke:smoke\"");
  }

  @Test
  void compactingEtcdForgetsOlderRevisionsOfWhatTheWatchCacheDoesNotHold(RealControlPlane api) {
    // events have no watch cache: a read at a revision is etcd's
    api.client().events().v1().events().inNamespace("default").list();
    long compacted = api.compactEtcd();
    assertThat(compacted).isGreaterThan(1);
    assertThat(api.compactEtcd()).as("again, nothing written since").isGreaterThanOrEqualTo(compacted);
    assertThatThrownBy(() -> api.client().events().v1().events().inNamespace("default")
        .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
            .withResourceVersion("1").withResourceVersionMatch("Exact").build()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(410));
  }
}
