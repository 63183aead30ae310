package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestRbac.clusterRole;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRoleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.role;
import static dev.kubeheadroom.kubedouble.TestRbac.roleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.rule;
import static dev.kubeheadroom.kubedouble.TestRbac.serviceAccount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * rule.go's binding describers; pkg/registry/authentication/selfsubjectreview/rest.go: who am I),
 * and TokenReview and SubjectAccessReview as a stage's metrics port asks them for a scraper (ops'
 * KubernetesAccessReviews); kube-real's ReviewsDifferentialTest holds those to the real server.
 */
class ReviewsTest {
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

  private TokenReviewStatus review(KubernetesClient as, String token) {
    return as.authentication().v1().tokenReviews()
        .create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build()).getStatus();
  }

  /** The stage {@code headroom/stage} may ask both reviews; {@code monitoring/prometheus} may get /metrics. */
  private KubernetesClient delegatingStage() {
    clusterRole(api.client(), "metrics-auth", rule("authentication.k8s.io", List.of("tokenreviews"), "create"),
        rule("authorization.k8s.io", List.of("subjectaccessreviews"), "create"));
    clusterRoleBinding(api.client(), "metrics-auth", "metrics-auth", serviceAccount("headroom", "stage"));
    clusterRole(api.client(), "metrics-reader",
        new PolicyRuleBuilder().withNonResourceURLs("/metrics").withVerbs("get").build());
    clusterRoleBinding(api.client(), "metrics-reader", "metrics-reader", serviceAccount("monitoring", "prometheus"));
    return api.clientAs("headroom", "stage");
  }

  private SubjectAccessReviewStatus mayGet(KubernetesClient stage, String path) {
    TokenReviewStatus who = review(stage, api.serviceAccountToken("monitoring", "prometheus"));
    return stage.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder().withNewSpec()
        .withUser(who.getUser().getUsername()).withGroups(who.getUser().getGroups())
        .withNewNonResourceAttributes().withVerb("get").withPath(path).endNonResourceAttributes()
        .endSpec().build()).getStatus();
  }

  @Test
  void aServiceAccountTokenIsAuthenticatedAsItsAccountAndAForgedOneIsNot() {
    KubernetesClient stage = delegatingStage();
    TokenReviewStatus scraper = review(stage, api.serviceAccountToken("monitoring", "prometheus"));
    assertThat(scraper.getAuthenticated()).isTrue();
    assertThat(scraper.getUser().getUsername()).isEqualTo("system:serviceaccount:monitoring:prometheus");
    assertThat(scraper.getUser().getGroups()).containsExactly(
        "system:serviceaccounts", "system:serviceaccounts:monitoring", "system:authenticated");
    TokenReviewStatus forged = review(stage, "kube-double.forged");
    assertThat(forged.getAuthenticated()).isNotEqualTo(Boolean.TRUE);
    assertThat(forged.getUser().getUsername()).isNull();
  }

  @Test
  void theScrapersAccessIsDecidedByItsBindings() {
    KubernetesClient stage = delegatingStage();
    SubjectAccessReviewStatus metrics = mayGet(stage, "/metrics");
    assertThat(metrics.getAllowed()).isTrue();
    assertThat(metrics.getReason()).isEqualTo("RBAC: allowed by ClusterRoleBinding \"metrics-reader\" of ClusterRole "
        + "\"metrics-reader\" to ServiceAccount \"prometheus/monitoring\"");
    assertThat(mayGet(stage, "/bookings").getAllowed()).isFalse();
  }

  @Test
  void aCallerWithoutCreateOnTheReviewsIsRefused() {
    delegatingStage();
    KubernetesClient nobody = api.clientAs("headroom", "nobody");
    assertThatThrownBy(() -> review(nobody, api.serviceAccountToken("monitoring", "prometheus")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
  }
}
