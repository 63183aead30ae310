package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;

/** JSON bodies in and out of the dispatcher: a bad body is a 400, as on a real API server. */
final class JsonResponses {
  private JsonResponses() {}

  static ObjectNode read(String json) {
    try {
      JsonNode node = Serialization.jsonMapper().readTree(json);
      if (node instanceof ObjectNode object) {
        return object;
      }
      throw ApiError.badRequest("expected a JSON object").asFailure();
    } catch (IOException e) {
      throw ApiError.badRequest("malformed JSON: " + e.getMessage()).asFailure();
    }
  }

  static MockResponse ok(ObjectNode object) {
    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
        .setBody(object.toString());
  }

  static MockResponse error(ApiError error) {
    return new MockResponse().setResponseCode(error.code()).setHeader("Content-Type", "application/json")
        .setBody(error.toJson());
  }
}
