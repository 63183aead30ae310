package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Objects;

/**
 * An error answer in the API server's {@code Status} form: HTTP code, reason and message as
 * {@code kube-apiserver} writes them, so clients see the same {@code KubernetesClientException}.
 *
 * @param field the offending field for 422 answers ({@code details.causes[0].field}), or empty
 * @param cause the reason of {@code details.causes[0]}: {@code FieldValueInvalid} where a field is
 *     named, another without one (e.g. {@code NodeCapacity}), or empty for no cause
 */
public record ApiError(int code, String reason, String message, String kind, String name, String field,
    String cause) {

  public ApiError {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    kind = kind == null ? "" : kind;
    name = name == null ? "" : name;
    field = field == null ? "" : field;
    cause = cause != null ? cause : field.isEmpty() ? "" : "FieldValueInvalid";
  }

  /** An error whose only cause, if any, is the invalid {@code field}. */
  public ApiError(int code, String reason, String message, String kind, String name, String field) {
    this(code, reason, message, kind, name, field, null);
  }

  static ApiError notFound(String resource, String name) {
    return new ApiError(404, "NotFound", resource + " \"" + name + "\" not found", resource, name, "");
  }

  static ApiError conflict(String resource, String name, String why) {
    return new ApiError(409, "Conflict",
        "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + why, resource, name, "");
  }

  /**
   * A 422 naming the field, in the {@code Pod "x" is invalid: field: detail} form; its
   * {@code details.kind} is the kind ({@code Pod}), not the resource, as {@code NewInvalid} has it.
   */
  static ApiError invalid(String kind, String name, String field, String detail) {
    return new ApiError(422, "Invalid", kind + " \"" + name + "\" is invalid: " + field + ": " + detail,
        kind, name, field);
  }

  static ApiError unsupportedMediaType(String contentType) {
    return new ApiError(415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
            + "application/json-patch+json, application/merge-patch+json, "
            + "application/apply-patch+yaml, application/strategic-merge-patch+json; got "
            + contentType, "", "", "");
  }

  static ApiError badRequest(String message) {
    return new ApiError(400, "BadRequest", message, "", "", "");
  }

  String toJson() {
    ObjectNode status = Serialization.jsonMapper().createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", reason);
    if (!name.isEmpty() || !kind.isEmpty() || !cause.isEmpty()) {
      details(status.putObject("details"));
    }
    status.put("code", code);
    return status.toString();
  }

  /** Only when there is something to say: apimachinery's 410 Expired and 400 BadRequest have none. */
  private void details(ObjectNode details) {
    if (!name.isEmpty()) {
      details.put("name", name);
    }
    if (!kind.isEmpty()) {
      details.put("kind", kind);
    }
    if (!cause.isEmpty()) {
      ObjectNode first = details.putArray("causes").addObject().put("reason", cause);
      if (!field.isEmpty()) {
        first.put("message", message).put("field", field);
      }
    }
  }

  /** Thrown inside the dispatcher to answer with this error. */
  static final class Failure extends RuntimeException {
    private final ApiError error;

    Failure(ApiError error) {
      super(error.message(), null, false, false);
      this.error = error;
    }

    ApiError error() {
      return error;
    }
  }

  Failure asFailure() {
    return new Failure(this);
  }
}
