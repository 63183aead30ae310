package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;

/**
 * What an API answer means for a resize try (docs/design/headroom-design.txt §6.4, runbook "Resize outcomes"). Pure.
 *
 * <ul>
 *   <li>2xx: {@code applied}
 *   <li>403 from a {@code limits.cpu} ResourceQuota ("exceeded quota"): {@code quota-denied};
 *       any other 403 (RBAC) is an {@code error}, so a missing permission is not mistaken for a
 *       tenant's quota
 *   <li>404: {@code gone}; 409: {@code conflict}; 422 and other 4xx: {@code error} with the
 *       server's message
 *   <li>429, 5xx, and no answer at all (timeout, connection refused): transient, try again
 *       (after the server's {@code Retry-After}, if it gave one)
 * </ul>
 */
final class OutcomeClassifier {
  private OutcomeClassifier() {}

  /** The meaning of one answer. */
  sealed interface Verdict {
    /** The try is over with this result. */
    record Final(OutcomeResult result, String message) implements Verdict {}

    /** The decision failed a {@link DecisionGate} check against the pod: {@code rejected}. */
    record Rejected(DecisionGate.Rejection rejection) implements Verdict {}

    /**
     * Transient: the same try may be repeated, not before {@code retryAfter} if the server asked
     * (ZERO when it did not).
     */
    record Transient(String message, Duration retryAfter) implements Verdict {
      public Transient {
        retryAfter = retryAfter == null || retryAfter.isNegative() ? Duration.ZERO : retryAfter;
      }

      Transient(String message) {
        this(message, Duration.ZERO);
      }
    }
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
    return classify(e, Duration.ZERO);
  }

  /**
   * As above; a transient verdict carries the wait the server asked for: the Status's
   * {@code details.retryAfterSeconds} when the answer was a Status, else {@code retryAfterHeader}
   * (a 429 from priority and fairness is plain text with a {@code Retry-After} header, which
   * fabric8's exception does not keep; see {@link ActuatorClient#lastRetryAfter()}).
   */
  static Verdict classify(KubernetesClientException e, Duration retryAfterHeader) {
    String message = e.getStatus() != null && e.getStatus().getMessage() != null
        ? e.getStatus().getMessage() : rootMessage(e);
    Verdict verdict = classify(e.getCode(), message);
    if (verdict instanceof Verdict.Transient t) {
      Integer seconds = e.getStatus() != null && e.getStatus().getDetails() != null
          ? e.getStatus().getDetails().getRetryAfterSeconds() : null;
      return new Verdict.Transient(t.message(),
          seconds != null && seconds > 0 ? Duration.ofSeconds(seconds) : retryAfterHeader);
    }
    return verdict;
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
