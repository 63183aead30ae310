package dev.kubeheadroom.kubereal.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewSpecBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reviews the metrics port asks of the API server on a scraper's behalf (ops'
 * KubernetesAccessReviews: TokenReview, then SubjectAccessReview for {@code get} on a
 * non-resource path), sent by a stage granted {@code create} on both, to the double and to the
 * real kube-apiserver: the same code and message, and the same fields the metrics port reads
 * (authenticated, user name, groups; allowed and the reason).
 */
@WithRealKubernetes
class ReviewsDifferentialTest {
  private static Both both;
  private static String ns;

  @BeforeAll
  static void start(RealControlPlane api) {
    both = new Both(api);
    ns = both.ns("diff-reviews");
    String release = ns; // cluster-scoped names: the real server is shared
    both.given(f -> {
      Given.namespace(f, ns);
      role(f, release + "-metrics-auth", "stage",
          new PolicyRuleBuilder().withApiGroups("authentication.k8s.io").withResources("tokenreviews")
              .withVerbs("create").build(),
          new PolicyRuleBuilder().withApiGroups("authorization.k8s.io").withResources("subjectaccessreviews")
              .withVerbs("create").build());
      role(f, release + "-metrics-reader", "prometheus",
          new PolicyRuleBuilder().withNonResourceURLs("/metrics").withVerbs("get").build());
    });
  }

  @AfterAll
  static void stop() {
    both.close();
  }

  @Test
  void aServiceAccountsTokenIsAuthenticatedAsThatAccount() {
    Answer answer = both.same(f -> tokenReview(f, f.token(ns, "prometheus")));
    assertThat(answer.result()).contains("\"authenticated\":true", "system:serviceaccount:" + ns + ":prometheus");
  }

  @Test
  void aTokenTheServerNeverIssuedIsNotAuthenticated() {
    Answer answer = both.same(f -> tokenReview(f, "never-issued"));
    assertThat(answer.result()).contains("\"authenticated\":false");
  }

  @Test
  void anEmptyTokenIsRefused() {
    Answer answer = both.same(f -> tokenReview(f, ""));
    assertThat(answer.code()).isEqualTo(400);
  }

  @Test
  void aCallerWithoutCreateOnTokenReviewsIs403() {
    Answer answer = both.same(f -> Answer.of(() -> summary(f.as(ns, "nobody").authentication().v1().tokenReviews()
        .create(new TokenReviewBuilder().withNewSpec().withToken(f.token(ns, "prometheus")).endSpec().build()))));
    assertThat(answer.code()).isEqualTo(403);
  }

  @Test
  void theScraperMayGetMetricsWithTheBindingAsReason() {
    Answer answer = both.same(f -> accessReview(f, s -> s.withUser(user("prometheus")).withGroups(groups())
        .withNewNonResourceAttributes().withVerb("get").withPath("/metrics").endNonResourceAttributes()));
    assertThat(answer.result()).contains("\"allowed\":true", "RBAC: allowed by ClusterRoleBinding");
  }

  @Test
  void theScraperMayNotGetBookings() {
    Answer answer = both.same(f -> accessReview(f, s -> s.withUser(user("prometheus")).withGroups(groups())
        .withNewNonResourceAttributes().withVerb("get").withPath("/bookings").endNonResourceAttributes()));
    assertThat(answer.result()).contains("\"allowed\":false");
  }

  @Test
  void aReviewOfNeitherResourceNorPathIs422() {
    Answer answer = both.same(f -> accessReview(f, s -> s.withUser(user("prometheus"))));
    assertThat(answer.code()).isEqualTo(422);
  }

  @Test
  void aSelfReviewOfNeitherResourceNorPathIs422Too() {
    Answer answer = both.same(f -> Answer.of(() -> f.as(ns, "stage").authorization().v1().selfSubjectAccessReview()
        .create(new io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder()
            .withNewSpec().endSpec().build()).getStatus().toString()));
    assertThat(answer.code()).isEqualTo(422);
  }

  @Test
  void aReviewNamingNoUserNorGroupIs422() {
    Answer answer = both.same(f -> accessReview(f, s -> s
        .withNewNonResourceAttributes().withVerb("get").withPath("/metrics").endNonResourceAttributes()));
    assertThat(answer.code()).isEqualTo(422);
  }

  private static String user(String serviceAccount) {
    return "system:serviceaccount:" + ns + ":" + serviceAccount;
  }

  private static List<String> groups() {
    return List.of("system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated");
  }

  private static Answer tokenReview(Front f, String token) {
    return Answer.of(() -> summary(f.as(ns, "stage").authentication().v1().tokenReviews()
        .create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build())));
  }

  private static Answer accessReview(Front f, UnaryOperator<SubjectAccessReviewSpecBuilder> spec) {
    SubjectAccessReview review = new SubjectAccessReviewBuilder()
        .withSpec(spec.apply(new SubjectAccessReviewSpecBuilder()).build()).build();
    return Answer.of(() -> {
      SubjectAccessReview answered = f.as(ns, "stage").authorization().v1().subjectAccessReview().create(review);
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("allowed", Boolean.TRUE.equals(answered.getStatus().getAllowed()));
      fields.put("reason", answered.getStatus().getReason() == null ? "" : answered.getStatus().getReason());
      fields.put("denied", Boolean.TRUE.equals(answered.getStatus().getDenied()));
      return Answer.sorted(fields);
    });
  }

  /** What the metrics port reads of a TokenReview (uid and extra are the real server's own: not compared). */
  private static String summary(TokenReview review) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("authenticated", Boolean.TRUE.equals(review.getStatus().getAuthenticated()));
    var user = review.getStatus().getUser();
    fields.put("username", user == null || user.getUsername() == null ? "" : user.getUsername());
    fields.put("groups", user == null || user.getGroups() == null ? List.of() : user.getGroups());
    fields.put("error", review.getStatus().getError() == null ? "" : "(an error)");
    return Answer.sorted(fields);
  }

  private static void role(Front f, String name, String serviceAccount, PolicyRule... rules) {
    KubernetesClient admin = f.admin();
    f.token(ns, serviceAccount); // the real server issues it for an existing account: created here
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(name).endMetadata()
        .withRules(rules).build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(name)
        .endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
        .withName(name).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(serviceAccount).withNamespace(ns).endSubject()
        .build()).create();
  }
}
