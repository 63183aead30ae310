package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The reviews answered from the authenticator and authorizer rather than stored, each 201 with
 * the object and its {@code status}: about the caller itself, {@code SelfSubjectAccessReview}
 * (what {@code kubectl auth can-i} sends; pkg/registry/authorization/selfsubjectaccessreview) and
 * {@code SelfSubjectReview} (who am I; pkg/registry/authentication/selfsubjectreview); and on
 * behalf of another, as a server that delegates its own authentication and authorization to the
 * API server asks them (Headroom's metrics port, kubebuilder's metrics filter): {@code
 * TokenReview} (pkg/registry/authentication/tokenreview) and {@code SubjectAccessReview}
 * (pkg/registry/authorization/subjectaccessreview). The caller needs {@code create} on the
 * review's resource, checked before this like any request.
 */
final class Reviews {
  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final String AUTHENTICATION = "authentication.k8s.io";
  private static final String AUTHORIZATION = "authorization.k8s.io";

  private Reviews() {
  }

  static boolean handles(RequestAttributes request) {
    return request.resourceRequest() && request.verb().equals("create") && request.subresource().isEmpty()
        && (request.apiGroup().equals(AUTHORIZATION)
                && List.of("selfsubjectaccessreviews", "subjectaccessreviews").contains(request.resource())
            || request.apiGroup().equals(AUTHENTICATION)
                && List.of("selfsubjectreviews", "tokenreviews").contains(request.resource()));
  }

  /**
   * @param tokens who a bearer token belongs to, if anyone (a TokenReview's answer)
   * @param authorizer what the authorizer decides for a user and a request
   */
  static MockResponse answer(UserInfo caller, RequestAttributes request, String body,
      Function<String, Optional<UserInfo>> tokens,
      BiFunction<UserInfo, RequestAttributes, RbacAuthorizer.Decision> authorizer) {
    ObjectNode review;
    try {
      JsonNode parsed = JSON.readTree(body == null || body.isBlank() ? "{}" : body);
      review = parsed instanceof ObjectNode object ? object : JSON.createObjectNode();
    } catch (IOException e) {
      return json(400, ApiError.badRequest("malformed JSON: " + e.getMessage()).toJson());
    }
    review.put("apiVersion", request.apiGroup() + "/" + request.apiVersion());
    return switch (request.resource()) {
      case "selfsubjectreviews" -> {
        review.put("kind", "SelfSubjectReview");
        userInfo(review.putObject("status").putObject("userInfo"), caller);
        yield json(201, review.toString());
      }
      case "tokenreviews" -> tokenReview(review, tokens);
      case "subjectaccessreviews" -> accessReview(review, "SubjectAccessReview", subject(review.path("spec")),
          authorizer);
      default -> accessReview(review, "SelfSubjectAccessReview", Optional.of(caller), authorizer);
    };
  }

  /** An empty token is refused (400); an unknown one is not authenticated, with an empty user. */
  private static MockResponse tokenReview(ObjectNode review, Function<String, Optional<UserInfo>> tokens) {
    review.put("kind", "TokenReview");
    String token = review.path("spec").path("token").asText("");
    if (token.isEmpty()) {
      return json(400, ApiError.badRequest("token is required for TokenReview in authentication").toJson());
    }
    ObjectNode status = review.putObject("status");
    Optional<UserInfo> user = tokens.apply(token);
    if (user.isPresent()) {
      status.put("authenticated", true);
      userInfo(status.putObject("user"), user.get());
    } else {
      status.putObject("user");
      status.put("error", "invalid bearer token");
    }
    return json(201, review.toString());
  }

  /** The SubjectAccessReview's subject: {@code spec.user} and {@code spec.groups}; empty when it names neither. */
  private static Optional<UserInfo> subject(JsonNode spec) {
    String user = text(spec, "user");
    List<String> groups = new ArrayList<>();
    spec.path("groups").forEach(g -> groups.add(g.asText()));
    return user.isEmpty() && groups.isEmpty() ? Optional.empty() : Optional.of(new UserInfo(user, groups));
  }

  private static MockResponse accessReview(ObjectNode review, String kind, Optional<UserInfo> subject,
      BiFunction<UserInfo, RequestAttributes, RbacAuthorizer.Decision> authorizer) {
    review.put("kind", kind);
    JsonNode resource = review.path("spec").path("resourceAttributes");
    JsonNode nonResource = review.path("spec").path("nonResourceAttributes");
    if (resource.isObject() == nonResource.isObject()) {
      return invalid("spec",
          "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified");
    }
    if (subject.isEmpty()) {
      return invalid("spec.user", "Invalid value: \"\": at least one of user or group must be specified");
    }
    RequestAttributes asked = resource.isObject()
        ? new RequestAttributes(text(resource, "verb"), true, "", text(resource, "group"), text(resource, "version"),
            text(resource, "namespace"), text(resource, "resource"), text(resource, "subresource"), text(resource, "name"))
        : new RequestAttributes(text(nonResource, "verb"), false, text(nonResource, "path"), "", "", "", "", "", "");
    RbacAuthorizer.Decision decision = authorizer.apply(subject.get(), asked);
    ObjectNode status = review.putObject("status");
    status.put("allowed", decision.allowed());
    if (!decision.reason().isEmpty()) {
      status.put("reason", decision.reason());
    }
    return json(201, review.toString());
  }

  /**
   * kube-apiserver's 422 for an invalid access review: {@code NewInvalid} given the internal
   * type's kind, which is empty, so the message names {@code .authorization.k8s.io ""} and the
   * details carry the group alone.
   */
  private static MockResponse invalid(String field, String detail) {
    String message = "." + AUTHORIZATION + " \"\" is invalid: " + field + ": " + detail;
    ObjectNode status;
    try {
      status = (ObjectNode) JSON.readTree(new ApiError(422, "Invalid", message, "", "", field).toJson());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    ((ObjectNode) status.path("details")).put("group", AUTHORIZATION);
    return json(422, status.toString());
  }

  private static void userInfo(ObjectNode out, UserInfo user) {
    out.put("username", user.name());
    user.groups().forEach(out.putArray("groups")::add);
  }

  private static String text(JsonNode node, String field) {
    return node.path(field).asText("");
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
  }
}
