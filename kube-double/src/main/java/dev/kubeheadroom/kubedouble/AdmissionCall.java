package dev.kubeheadroom.kubedouble;

import java.time.Duration;
import java.util.Objects;

/**
 * One call the double's mutating-admission chain made to a webhook, for tests to count and
 * inspect ({@link ApiServerDouble#admissionCalls()}).
 *
 * @param configuration the MutatingWebhookConfiguration's name
 * @param webhook the webhook's name within it
 * @param namespace the namespace of the pod being created
 * @param name the pod's name ({@code ""} for a {@code generateName} create, as in the review)
 * @param outcome what the call did to the create
 * @param detail the error or denial message; {@code ""} when the call succeeded
 * @param took from the request to the response (or the failure)
 */
public record AdmissionCall(String configuration, String webhook, String namespace, String name,
    Outcome outcome, String detail, Duration took) {

  public AdmissionCall {
    Objects.requireNonNull(outcome, "outcome");
    detail = detail == null ? "" : detail;
  }

  /** What a call to one webhook did to the create. */
  public enum Outcome {
    /** Allowed with a JSON patch that was applied. */
    MUTATED,
    /** Allowed without a patch (or with an empty one). */
    UNCHANGED,
    /** {@code allowed: false}: the create was refused with the webhook's status. */
    DENIED,
    /** The call failed (error, timeout, TLS, invalid response) and {@code failurePolicy: Ignore} let the create go on. */
    FAILED_OPEN,
    /** The call failed under {@code failurePolicy: Fail}: the create was refused with 500. */
    FAILED_CLOSED,
    /** The patch was returned but did not apply: 500 for the create whatever the failurePolicy. */
    PATCH_FAILED
  }
}
