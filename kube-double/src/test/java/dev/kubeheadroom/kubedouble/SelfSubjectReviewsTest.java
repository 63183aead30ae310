package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestRbac.clusterRole;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRoleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.role;
import static dev.kubeheadroom.kubedouble.TestRbac.roleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.rule;
import static dev.kubeheadroom.kubedouble.TestRbac.serviceAccount;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Self subject reviews answered by the authorizer, as kube-apiserver answers them
 * (pkg/registry/authorization/selfsubjectaccessreview/rest.go: the caller's own attributes go
 * through the authorizer; the reason is rbac.go's authorizingVisitor "RBAC: allowed by ..." with
 * rule.go's binding describers; pkg/registry/authentication/selfsubjectreview/rest.go: who am I).
 */
class SelfSubjectReviewsTest {
  private ApiServerDouble api;
  private KubernetesClient actuator;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    actuator = api.clientAs("headroom", "actuator");
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private SubjectAccessReviewStatus canI(String verb, String resource, String subresource, String namespace) {
    SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
        .withVerb(verb).withGroup("").withResource(resource).withSubresource(subresource).withNamespace(namespace)
        .endResourceAttributes().endSpec().build();
    return actuator.authorization().v1().selfSubjectAccessReview().create(review).getStatus();
  }

  @Test
  void anAccessReviewAnswersWithTheBindingThatAllowsOrNotAllowed() {
    clusterRole(api.client(), "headroom-actuator", rule("", List.of("pods"), "get", "list"));
    clusterRoleBinding(api.client(), "headroom-actuator", "headroom-actuator", serviceAccount("headroom", "actuator"));
    role(api.client(), "team-a", "resizer", rule("", List.of("pods/resize"), "patch"));
    roleBinding(api.client(), "team-a", "resizer", "Role", "resizer", serviceAccount("headroom", "actuator"));

    SubjectAccessReviewStatus get = canI("get", "pods", "", "team-a");
    assertThat(get.getAllowed()).isTrue();
    assertThat(get.getReason()).isEqualTo("RBAC: allowed by ClusterRoleBinding \"headroom-actuator\" of ClusterRole "
        + "\"headroom-actuator\" to ServiceAccount \"actuator/headroom\"");
    SubjectAccessReviewStatus resize = canI("patch", "pods", "resize", "team-a");
    assertThat(resize.getAllowed()).isTrue();
    assertThat(resize.getReason()).isEqualTo("RBAC: allowed by RoleBinding \"resizer/team-a\" of Role \"resizer\" "
        + "to ServiceAccount \"actuator/headroom\"");
    SubjectAccessReviewStatus elsewhere = canI("patch", "pods", "resize", "team-b");
    assertThat(elsewhere.getAllowed()).isFalse();
    assertThat(elsewhere.getReason()).isNull();
  }

  @Test
  void aNonResourceReviewUsesTheBootstrapDiscoveryGrant() {
    SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewNonResourceAttributes()
        .withVerb("get").withPath("/version").endNonResourceAttributes().endSpec().build();

    SubjectAccessReviewStatus status = actuator.authorization().v1().selfSubjectAccessReview().create(review).getStatus();

    assertThat(status.getAllowed()).isTrue();
    assertThat(status.getReason()).isEqualTo("RBAC: allowed by ClusterRoleBinding \"system:discovery\" of ClusterRole "
        + "\"system:discovery\" to Group \"system:authenticated\"");
  }

  @Test
  void aSelfSubjectReviewSaysWhoTheCallerIs() {
    SelfSubjectReview review = actuator.authentication().v1().selfSubjectReviews().create(new SelfSubjectReview());

    assertThat(review.getStatus().getUserInfo().getUsername()).isEqualTo("system:serviceaccount:headroom:actuator");
    assertThat(review.getStatus().getUserInfo().getGroups())
        .containsExactly("system:serviceaccounts", "system:serviceaccounts:headroom", "system:authenticated");
  }
}
