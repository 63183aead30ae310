package dev.kubeheadroom.kubedouble;

import java.time.Duration;
import java.util.Objects;

/** A programmed answer that replaces (or delays) the API server's own. */
public sealed interface Fault {

  /**
   * Answer with an error {@code Status} instead of processing the request; nothing changes.
   * {@code {name}}, {@code {namespace}} and {@code {resource}} in the message are filled from the
   * request.
   */
  record Respond(int code, String reason, String message) implements Fault {
    public Respond {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      if (code < 400 || code > 599) {
        throw new IllegalArgumentException("code must be an HTTP error, got " + code);
      }
    }

    ApiError toError(ApiRequest request) {
      String text = message.replace("{name}", request.name())
          .replace("{namespace}", request.namespace()).replace("{resource}", request.resource());
      return new ApiError(code, reason, text, request.resource(), request.name(), "");
    }
  }

  /**
   * Process the request normally (its change is applied at once) but hold the answer back, as a
   * slow or overloaded API server would.
   */
  record Delay(Duration delay) implements Fault {
    public Delay {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("delay must not be negative: " + delay);
      }
    }
  }

  /**
   * The 403 a {@code limits.cpu} ResourceQuota gives an over-budget raise (docs/design/headroom-design.txt §6.4), e.g.
   * {@code forbiddenByQuota("compute", "limits.cpu=2", "limits.cpu=4", "limits.cpu=5")}.
   */
  static Respond forbiddenByQuota(String quota, String requested, String used, String limited) {
    return new Respond(403, "Forbidden", "{resource} \"{name}\" is forbidden: exceeded quota: "
        + quota + ", requested: " + requested + ", used: " + used + ", limited: " + limited);
  }

  static Respond notFound() {
    return new Respond(404, "NotFound", "{resource} \"{name}\" not found");
  }

  static Respond conflict() {
    return new Respond(409, "Conflict", "Operation cannot be fulfilled on {resource} \"{name}\": "
        + "the object has been modified; please apply your changes to the latest version and try again");
  }

  static Respond invalid(String detail) {
    return new Respond(422, "Invalid", "Pod \"{name}\" is invalid: " + detail);
  }

  static Respond internalError() {
    return new Respond(500, "InternalError", "Internal error occurred: injected by kube-double");
  }

  /**
   * The 429 priority and fairness answers when a request's queue is full: a plain-text body
   * ({@value StatusResponses#TOO_MANY_REQUESTS}) and {@code Retry-After} in whole seconds (at least
   * 1, rounded up), not a {@code Status}. Nothing changes. A {@link Respond} with code 429 answers
   * the same way, with {@code Retry-After: 1}.
   */
  record TooManyRequests(Duration retryAfter) implements Fault {
    public TooManyRequests {
      if (retryAfter.isNegative()) {
        throw new IllegalArgumentException("retryAfter must not be negative: " + retryAfter);
      }
    }
  }

  /** A 429 with {@code Retry-After: 1}, as kube-apiserver's priority and fairness sends. */
  static TooManyRequests tooManyRequests() {
    return new TooManyRequests(Duration.ofSeconds(1));
  }

  /** A 429 asking the client to wait {@code retryAfter} (sent in whole seconds). */
  static TooManyRequests tooManyRequests(Duration retryAfter) {
    return new TooManyRequests(retryAfter);
  }

  static Delay delay(Duration delay) {
    return new Delay(delay);
  }
}
