package dev.kubeheadroom.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.zjsonpatch.JsonPatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;

/**
 * The property the admission review reader holds for any body (docs/reliability.md, "Hostile
 * inputs"): {@link AdmissionHandler#handle} never throws; its answer is a well-formed
 * AdmissionReview v1 response that allows the pod and echoes the request's uid; an error it admits
 * the pod after is logged in one line that names no Java type; and a patch, applied
 * to the request's pod by an independent RFC 6902 library, never leaves a CPU limit it set below
 * that container's CPU request (compared exactly, as the API server does).
 */
final class AdmissionAnswers {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdmissionAnswers() {}

  /** A warm handler knowing {@code team-a} (managed) and {@code namespace}, with {@code config}. */
  static AdmissionHandler handler(NamespaceInfo namespace, ClusterConfig config, WebhookMetrics metrics) {
    ClusterState state = new ClusterState();
    state.putNamespace(Fixtures.TEAM_A);
    state.putNamespace(namespace);
    state.putConfig(config);
    state.markWarm();
    return new AdmissionHandler(state, metrics);
  }

  static WebhookMetrics metrics() {
    return new WebhookMetrics(new SimpleMeterRegistry());
  }

  /** Asserts the property for one body and its answer; returns the answer's decoded patch or null. */
  static JsonNode holds(byte[] body, AdmissionHandler.Answer answer, String what) {
    if (answer.problem() != null) {
      assertThat(answer.problem()).as("%s: the error", what).doesNotContain("\n").doesNotContain("java.")
          .doesNotContain("fabric8").doesNotContain("Exception").isNotBlank();
    }
    JsonNode response = parse(answer.json(), what + ": the answer");
    assertThat(response.path("apiVersion").asText()).as(what).isEqualTo("admission.k8s.io/v1");
    assertThat(response.path("kind").asText()).as(what).isEqualTo("AdmissionReview");
    JsonNode r = response.path("response");
    assertThat(r.path("allowed").isBoolean() && r.path("allowed").asBoolean()).as("%s: allowed", what).isTrue();
    assertThat(r.path("uid").isTextual()).as("%s: uid is a string", what).isTrue();
    JsonNode request = readable(body);
    if (request != null && request.path("uid").isTextual()) {
      assertThat(r.path("uid").asText()).as("%s: uid echoed", what).isEqualTo(request.path("uid").asText());
    }
    if (!r.has("patch")) {
      assertThat(r.has("patchType")).as("%s: patchType without a patch", what).isFalse();
      return null;
    }
    assertThat(r.path("patchType").asText()).as(what).isEqualTo("JSONPatch");
    assertThat(request).as("%s: a patch for an unreadable review", what).isNotNull();
    JsonNode patch = parse(Base64.getDecoder().decode(r.path("patch").asText()), what + ": the patch");
    JsonNode pod = request.path("object");
    JsonNode patched = JsonPatch.apply(patch, pod);
    for (String list : new String[] {"containers", "initContainers"}) {
      JsonNode before = pod.path("spec").path(list);
      JsonNode after = patched.path("spec").path(list);
      for (int i = 0; i < after.size(); i++) {
        JsonNode limit = after.get(i).path("resources").path("limits").path("cpu");
        if (limit.isMissingNode() || limit.equals(before.path(i).path("resources").path("limits").path("cpu"))) {
          continue; // not set by the patch
        }
        JsonNode request1 = after.get(i).path("resources").path("requests").path("cpu");
        assertThat(request1.isTextual()).as("%s: %s[%d] got a limit with no request", what, list, i).isTrue();
        assertThat(amount(limit.asText())).as("%s: %s[%d] limit %s below request %s", what, list, i,
            limit.asText(), request1.asText()).isGreaterThanOrEqualTo(amount(request1.asText()));
      }
    }
    return patch;
  }

  /** The review's {@code request}, or null when the body is not a JSON review with a request object. */
  private static JsonNode readable(byte[] body) {
    try {
      JsonNode request = JSON.readTree(body).path("request");
      return request.isObject() ? request : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static JsonNode parse(byte[] bytes, String what) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new AssertionError(what + " is not JSON", e);
    }
  }

  private static BigDecimal amount(String quantity) {
    return Quantity.getAmountInBytes(new Quantity(quantity));
  }

  static final Map<String, String> MANAGED = Map.of("kube-headroom.dev/mode", "managed");
}
