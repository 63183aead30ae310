package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * What an API answer means for a resize try (design §6.4, runbook "Resize outcomes"). Pure.
 *
 * <ul>
 *   <li>2xx: {@code applied}
 *   <li>403 from a {@code limits.cpu} ResourceQuota ("exceeded quota"): {@code quota-denied};
 *       any other 403 (RBAC) is an {@code error}, so a missing permission is not mistaken for a
 *       tenant's quota
 *   <li>404: {@code gone}; 409: {@code conflict}; 422 and other 4xx: {@code error} with the
 *       server's message
 *   <li>429, 5xx, and no answer at all (timeout, connection refused): transient, try again
 * </ul>
 */
final class OutcomeClassifier {
  private OutcomeClassifier() {}

  /** The meaning of one answer. */
  sealed interface Verdict {
    /** The try is over with this result. */
    record Final(OutcomeResult result, String message) implements Verdict {}

    /** Transient: the same try may be repeated. */
    record Transient(String message) implements Verdict {}
  }

  static Verdict classify(int code, String message) {
    String text = message == null ? "" : message;
    if (code >= 200 && code < 300) {
      return new Verdict.Final(OutcomeResult.APPLIED, text);
    }
    if (code <= 0 || code == 429 || code >= 500) {
      return new Verdict.Transient(code <= 0 ? text : code + ": " + text);
    }
    return switch (code) {
      case 403 -> new Verdict.Final(
          text.contains("exceeded quota") ? OutcomeResult.QUOTA_DENIED : OutcomeResult.ERROR, text);
      case 404 -> new Verdict.Final(OutcomeResult.GONE, text);
      case 409 -> new Verdict.Final(OutcomeResult.CONFLICT, text);
      default -> new Verdict.Final(OutcomeResult.ERROR, code + ": " + text);
    };
  }

  /**
   * A failed call: the API server's status when it answered; code 0 (transient) when it did not
   * (fabric8 reports timeouts and I/O errors as a {@link KubernetesClientException} with code 0 or
   * -1).
   */
  static Verdict classify(KubernetesClientException e) {
    String message = e.getStatus() != null && e.getStatus().getMessage() != null
        ? e.getStatus().getMessage() : rootMessage(e);
    return classify(e.getCode(), message);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return root == e ? message : e.getMessage() + " (" + message + ")";
  }
}
