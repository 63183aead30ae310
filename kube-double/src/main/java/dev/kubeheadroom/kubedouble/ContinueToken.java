package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A LIST {@code continue} token in the form the real server gives it
 * ({@code staging/src/k8s.io/apiserver/pkg/storage/continue.go}: base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":<snapshot revision>,"start":"<last key>\u0000"}}); clients
 * treat it as opaque.
 *
 * @param revision the revision the first page was read at; -1 continues from the current state
 *     (the token a 410 carries, for a client that accepts an inconsistent list)
 * @param start the first key of the next page (relative to the listed collection)
 */
record ContinueToken(long revision, String start) {
  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final String VERSION = "meta.k8s.io/v1";

  static ContinueToken after(long revision, String lastKey) {
    return new ContinueToken(revision, lastKey + "\u0000");
  }

  String encode() {
    ObjectNode token = JSON.createObjectNode().put("v", VERSION).put("rv", revision).put("start", start);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Parses a token; a malformed one is 400 ("invalid continue token"), as on the real server. */
  static ContinueToken decode(String encoded) {
    try {
      JsonNode token = JSON.readTree(Base64.getUrlDecoder().decode(encoded.replace("=", "")));
      if (!VERSION.equals(token.path("v").asText()) || !token.path("rv").isIntegralNumber()
          || !token.path("start").isTextual() || token.path("start").asText().isEmpty()) {
        throw new IllegalArgumentException("continue key is not valid");
      }
      return new ContinueToken(token.get("rv").asLong(), token.get("start").asText());
    } catch (Exception e) {
      throw ApiError.badRequest("invalid continue token: " + e.getMessage()).asFailure();
    }
  }
}
