package dev.kubeheadroom.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;

/** AdmissionReview fixtures under {@code src/test/resources/admission/}, configs and namespaces. */
final class Fixtures {
  static final ObjectMapper JSON = new ObjectMapper();

  static final NamespaceInfo TEAM_A = new NamespaceInfo("team-a", Map.of("kube-headroom.dev/mode", "managed"), 0);

  private Fixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/admission/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode review(String name) {
    return (ObjectNode) tree(bytes(name));
  }

  /** The fixture with its request (and pod) moved to another namespace. */
  static byte[] inNamespace(String name, String namespace) {
    ObjectNode review = review(name);
    ObjectNode request = (ObjectNode) review.get("request");
    request.put("namespace", namespace);
    ((ObjectNode) request.get("object").get("metadata")).put("namespace", namespace);
    return review.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  static JsonNode tree(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The response's decoded JSONPatch, or null when it has none. */
  static JsonNode patch(JsonNode response) {
    JsonNode patch = response.path("response").get("patch");
    return patch == null ? null : tree(Base64.getDecoder().decode(patch.asText()));
  }

  /** Applies the response's patch to the fixture's pod with an independent RFC 6902 library. */
  static JsonNode patchedPod(String fixture, JsonNode response) {
    JsonNode pod = review(fixture).get("request").get("object");
    return JsonPatch.apply(patch(response), pod);
  }

  /** Enforcing (not dry-run) defaults, with the webhook's knobs as given. */
  static ClusterConfig config(boolean enabled, double initialMultiplier, double maxMultiplier, long quantumMilli) {
    ClusterConfig d = ClusterConfig.DEFAULTS;
    return new ClusterConfig(1, d.policy(), false, d.minBurstFloorMilli(), maxMultiplier, quantumMilli,
        d.deadbandGrowPercent(), d.deadbandShrinkPercent(), d.debouncePeriod(), d.maxDebounceDelay(),
        d.backoffPeriod(), d.rateLimits(), new ClusterConfig.Webhook(enabled, initialMultiplier),
        d.namespaceSelector(), d.excludedNamespaces());
  }

  /** docs/design/config.md defaults (initialMultiplier 2, maxMultiplier 10, quantum 10m), enforcing. */
  static ClusterConfig enforcing() {
    return config(true, 2, 10, 10);
  }
}
