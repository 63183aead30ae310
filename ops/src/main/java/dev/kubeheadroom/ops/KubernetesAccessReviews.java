package dev.kubeheadroom.ops;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * {@link AccessReviews} answered by the API server: {@code authentication.k8s.io/v1}
 * TokenReview and {@code authorization.k8s.io/v1} SubjectAccessReview, both {@code create} (the
 * chart grants them to every stage).
 */
public final class KubernetesAccessReviews implements AccessReviews {
  private final KubernetesClient client;

  public KubernetesAccessReviews(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<Subject> authenticate(String token) throws Unavailable {
    TokenReview review;
    try {
      review = client.authentication().v1().tokenReviews().create(
          new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build());
    } catch (KubernetesClientException e) {
      throw unavailable("tokenreviews", e);
    }
    if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
      return Optional.empty();
    }
    UserInfo user = review.getStatus().getUser();
    return Optional.of(new Subject(
        user.getUsername(), user.getUid(), user.getGroups(), user.getExtra()));
  }

  @Override
  public boolean mayGet(Subject subject, String path) throws Unavailable {
    SubjectAccessReview review;
    try {
      review = client.authorization().v1().subjectAccessReview().create(
          new SubjectAccessReviewBuilder().withNewSpec()
              .withUser(subject.user()).withUid(subject.uid()).withGroups(subject.groups())
              .withExtra(subject.extra())
              .withNewNonResourceAttributes().withVerb("get").withPath(path)
              .endNonResourceAttributes()
              .endSpec().build());
    } catch (KubernetesClientException e) {
      throw unavailable("subjectaccessreviews", e);
    }
    return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
  }

  private Unavailable unavailable(String resource, KubernetesClientException e) {
    String why = e.getCode() == 0
        ? "unreachable (" + (e.getCause() == null ? e.getMessage() : e.getCause().toString()) + ")"
        : "answered " + e.getCode() + (e.getCode() == 403 ? " (the stage needs create on " + resource + ")" : "");
    return new Unavailable("API server " + client.getMasterUrl() + " " + why + " to a " + resource + " create");
  }
}
