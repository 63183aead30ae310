package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.util.function.BiFunction;

/**
 * The reviews a caller makes about itself, answered from the authenticator and authorizer rather
 * than stored: {@code SelfSubjectAccessReview} (what {@code kubectl auth can-i} sends;
 * pkg/registry/authorization/selfsubjectaccessreview/rest.go) and {@code SelfSubjectReview}
 * (who am I; pkg/registry/authentication/selfsubjectreview/rest.go). Both answer 201 with the
 * object and its {@code status}.
 */
final class SelfSubjectReviews {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private SelfSubjectReviews() {
  }

  static boolean handles(RequestAttributes request) {
    return request.resourceRequest() && request.verb().equals("create") && request.subresource().isEmpty()
        && (request.apiGroup().equals("authorization.k8s.io") && request.resource().equals("selfsubjectaccessreviews")
            || request.apiGroup().equals("authentication.k8s.io") && request.resource().equals("selfsubjectreviews"));
  }

  static MockResponse answer(UserInfo user, RequestAttributes request, String body,
      BiFunction<UserInfo, RequestAttributes, RbacAuthorizer.Decision> authorizer) {
    ObjectNode review;
    try {
      JsonNode parsed = JSON.readTree(body == null || body.isBlank() ? "{}" : body);
      review = parsed instanceof ObjectNode object ? object : JSON.createObjectNode();
    } catch (IOException e) {
      return json(400, ApiError.badRequest("malformed JSON: " + e.getMessage()).toJson());
    }
    review.put("apiVersion", request.apiGroup() + "/" + request.apiVersion());
    ObjectNode status = review.putObject("status");
    if (request.resource().equals("selfsubjectreviews")) {
      review.put("kind", "SelfSubjectReview");
      ObjectNode userInfo = status.putObject("userInfo").put("username", user.name());
      user.groups().forEach(userInfo.putArray("groups")::add);
      return json(201, review.toString());
    }
    review.put("kind", "SelfSubjectAccessReview");
    JsonNode resource = review.path("spec").path("resourceAttributes");
    JsonNode nonResource = review.path("spec").path("nonResourceAttributes");
    if (resource.isObject() == nonResource.isObject()) {
      return json(422, ApiError.invalid("SelfSubjectAccessReview", "", "spec.resourceAttributes",
          "Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified")
          .toJson());
    }
    RequestAttributes asked = resource.isObject()
        ? new RequestAttributes(text(resource, "verb"), true, "", text(resource, "group"), text(resource, "version"),
            text(resource, "namespace"), text(resource, "resource"), text(resource, "subresource"), text(resource, "name"))
        : new RequestAttributes(text(nonResource, "verb"), false, text(nonResource, "path"), "", "", "", "", "", "");
    RbacAuthorizer.Decision decision = authorizer.apply(user, asked);
    status.put("allowed", decision.allowed());
    if (!decision.reason().isEmpty()) {
      status.put("reason", decision.reason());
    }
    return json(201, review.toString());
  }

  private static String text(JsonNode node, String field) {
    return node.path(field).asText("");
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
  }
}
