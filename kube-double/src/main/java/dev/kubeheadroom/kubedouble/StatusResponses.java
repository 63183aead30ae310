package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The answers kube-apiserver's filters give before a request reaches its handler, byte for byte
 * where a client could tell: 401 from authentication, 403 from authorization, 429 from priority
 * and fairness.
 */
final class StatusResponses {
  /** What priority and fairness writes (staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go tooManyRequests). */
  static final String TOO_MANY_REQUESTS = "Too many requests, please try again later.";

  private StatusResponses() {
  }

  /**
   * {@code responsewriters.UnauthorizedNegotiated}
   * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go): reason and
   * message {@code Unauthorized}, no details.
   */
  static MockResponse unauthorized() {
    ObjectNode status = status("Unauthorized", "Unauthorized");
    return json(401, status.put("code", 401));
  }

  /**
   * {@code responsewriters.Forbidden} + {@code forbiddenMessage} (errors.go) and
   * {@code apierrors.NewForbidden}: {@code <resource>[.<group>] ["<name>"] is forbidden: User "u"
   * cannot <verb> resource "<resource>[/<subresource>]" in API group "<group>" in the namespace
   * "<ns>"|at the cluster scope[: <reason>]}; {@code forbidden: User "u" cannot <verb> path
   * "<path>"} for a non-resource request. {@code details} holds name, group and kind (the
   * resource, without subresource), each omitted when empty.
   */
  static MockResponse forbidden(UserInfo user, RequestAttributes request, String reason) {
    String denied;
    if (!request.resourceRequest()) {
      denied = "User \"" + user.name() + "\" cannot " + request.verb() + " path \"" + request.path() + "\"";
    } else {
      denied = "User \"" + user.name() + "\" cannot " + request.verb() + " resource \""
          + request.resourceWithSubresource() + "\" in API group \"" + request.apiGroup() + "\""
          + (request.namespace().isEmpty() ? " at the cluster scope" : " in the namespace \"" + request.namespace() + "\"");
    }
    denied = sanitize(denied) + (reason.isEmpty() ? "" : ": " + reason);
    String group = request.resourceRequest() ? request.apiGroup() : "";
    String resource = request.resourceRequest() ? request.resource() : "";
    String qualified = group.isEmpty() ? resource : resource + "." + group;
    String message = qualified.isEmpty() ? "forbidden: " + denied
        : request.name().isEmpty() ? qualified + " is forbidden: " + denied
        : qualified + " \"" + request.name() + "\" is forbidden: " + denied;
    ObjectNode status = status("Forbidden", message);
    ObjectNode details = status.putObject("details");
    putIfNotEmpty(details, "name", request.name());
    putIfNotEmpty(details, "group", group);
    putIfNotEmpty(details, "kind", resource);
    status.put("code", 403);
    return json(403, status).setHeader("X-Content-Type-Options", "nosniff");
  }

  /**
   * A request priority and fairness rejected: net/http's {@code http.Error} (plain text, the line
   * ends with a newline) with {@code Retry-After} in whole seconds (at least 1).
   */
  static MockResponse tooManyRequests(Duration retryAfter) {
    long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    return new MockResponse().setResponseCode(429)
        .setHeader("Content-Type", "text/plain; charset=utf-8")
        .setHeader("X-Content-Type-Options", "nosniff")
        .setHeader("Retry-After", String.valueOf(seconds))
        .setBody(TOO_MANY_REQUESTS + "\n");
  }

  /** The answer a programmed fault gives in place of the handler's; none for a delay. */
  static Optional<MockResponse> programmed(Fault fault, ApiRequest request) {
    if (fault instanceof Fault.TooManyRequests throttle) {
      return Optional.of(tooManyRequests(throttle.retryAfter()));
    }
    if (fault instanceof Fault.Respond respond) {
      if (respond.code() == 429) {
        return Optional.of(tooManyRequests(Duration.ofSeconds(1)));
      }
      ApiError error = respond.toError(request);
      return Optional.of(new MockResponse().setResponseCode(error.code())
          .setHeader("Content-Type", "application/json").setBody(error.toJson()));
    }
    return Optional.empty();
  }

  /** errors.go sanitizer: the message is echoed into an HTML-capable context. */
  private static String sanitize(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static ObjectNode status(String reason, String message) {
    ObjectNode status = Serialization.jsonMapper().createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", reason);
    return status;
  }

  private static void putIfNotEmpty(ObjectNode node, String field, String value) {
    if (!value.isEmpty()) {
      node.put(field, value);
    }
  }

  private static MockResponse json(int code, ObjectNode body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
        .setBody(body.toString());
  }
}
