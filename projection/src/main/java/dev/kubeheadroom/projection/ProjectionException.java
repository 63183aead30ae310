package dev.kubeheadroom.projection;

/**
 * A Kubernetes object that cannot become a record because it is invalid (the API server would not
 * have stored it): a missing name or uid, an unparseable CPU request. Odd-but-valid objects never
 * raise this. The message is one line and starts with {@code Kind(namespace/name)}.
 */
public final class ProjectionException extends RuntimeException {
  ProjectionException(String message) {
    super(message);
  }

  ProjectionException(String message, Throwable cause) {
    super(message, cause);
  }
}
