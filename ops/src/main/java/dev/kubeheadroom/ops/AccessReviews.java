package dev.kubeheadroom.ops;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who a bearer token is, and whether that one may {@code get} a non-resource path: the two
 * questions {@link TokenAuthorizer} asks the API server (TokenReview, SubjectAccessReview), behind
 * an interface so its decisions and cache are tested without a server.
 */
public interface AccessReviews {

  /** The user a TokenReview authenticated, as a SubjectAccessReview must name it. */
  record Subject(String user, String uid, List<String> groups, Map<String, List<String>> extra) {
    public Subject {
      groups = groups == null ? List.of() : List.copyOf(groups);
      extra = extra == null ? Map.of() : Map.copyOf(extra);
    }
  }

  /** The API server did not answer a review (unreachable, 5xx, or the stage may not ask). */
  final class Unavailable extends Exception {
    public Unavailable(String message) {
      super(message);
    }
  }

  /** The token's user, or empty when the server says the token is not valid. */
  Optional<Subject> authenticate(String token) throws Unavailable;

  /** Whether {@code subject} may {@code get} the non-resource URL {@code path}. */
  boolean mayGet(Subject subject, String path) throws Unavailable;
}
