package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.WebhookCaller.CallException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.util.Base64;
import java.util.List;

/**
 * {@code admission.k8s.io/v1} AdmissionReviews for a pod CREATE: the request the API server sends
 * ({@code webhook/request/admissionreview.go} {@code CreateV1AdmissionReview}), the checks it makes
 * on the answer ({@code VerifyAdmissionResponse}) and the error a denial becomes
 * ({@code webhook/errors/statuserror.go} {@code ToStatusErr}).
 */
final class AdmissionReviews {
  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final String API_VERSION = "admission.k8s.io/v1";

  private AdmissionReviews() {}

  /** Who made the request, as the review's {@code userInfo}; unknown is sent as {@code {}}. */
  record User(String username, List<String> groups) {
    static final User UNKNOWN = new User("", List.of());

    User {
      username = username == null ? "" : username;
      groups = groups == null ? List.of() : List.copyOf(groups);
    }
  }

  /** What a valid response says. {@code patch} is null when there is none. */
  record Response(boolean allowed, byte[] patch, String patchType, JsonNode result) {}

  static ObjectNode request(String uid, ApiRequest api, ObjectNode pod, User user) {
    ObjectNode review = JSON.createObjectNode();
    review.put("apiVersion", API_VERSION).put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request");
    request.put("uid", uid);
    podKind(request.putObject("kind"));
    podResource(request.putObject("resource"));
    podKind(request.putObject("requestKind"));
    podResource(request.putObject("requestResource"));
    String name = pod.path("metadata").path("name").asText("");
    if (!name.isEmpty()) {
      request.put("name", name);
    }
    request.put("namespace", api.namespace());
    request.put("operation", "CREATE");
    ObjectNode userInfo = request.putObject("userInfo");
    if (!user.username().isEmpty()) {
      userInfo.put("username", user.username());
    }
    if (!user.groups().isEmpty()) {
      user.groups().forEach(userInfo.putArray("groups")::add);
    }
    request.set("object", pod);
    request.putNull("oldObject");
    request.put("dryRun", dryRun(api));
    ObjectNode options = request.putObject("options");
    options.put("kind", "CreateOptions").put("apiVersion", "meta.k8s.io/v1");
    if (dryRun(api)) {
      options.putArray("dryRun").add("All");
    }
    if (api.query().containsKey("fieldManager")) {
      options.put("fieldManager", api.query().get("fieldManager"));
    }
    return review;
  }

  static boolean dryRun(ApiRequest api) {
    return !api.query().getOrDefault("dryRun", "").isEmpty();
  }

  private static void podKind(ObjectNode kind) {
    kind.put("group", "").put("version", "v1").put("kind", "Pod");
  }

  private static void podResource(ObjectNode resource) {
    resource.put("group", "").put("version", "v1").put("resource", "pods");
  }

  /**
   * The response of a mutating webhook, checked as the API server checks it: decodable, with a
   * {@code response} whose {@code uid} is the request's, of kind {@code admission.k8s.io/v1
   * AdmissionReview}, with {@code patch} and {@code patchType} together.
   */
  static Response verify(String uid, byte[] body) throws CallException {
    JsonNode review;
    byte[] patch;
    try {
      review = JSON.readTree(body);
      JsonNode encoded = review == null ? null : review.path("response").get("patch");
      patch = encoded == null || encoded.isNull() ? null : Base64.getDecoder().decode(encoded.asText());
    } catch (IOException | IllegalArgumentException e) {
      throw new CallException("failed to call webhook: " + e.getMessage());
    }
    if (review == null || !review.path("response").isObject()) {
      throw invalid("webhook response was absent");
    }
    JsonNode response = review.get("response");
    String got = response.path("uid").asText("");
    if (!got.equals(uid)) {
      throw invalid("expected response.uid=\"" + uid + "\", got \"" + got + "\"");
    }
    String apiVersion = review.path("apiVersion").asText("");
    String kind = review.path("kind").asText("");
    if (!apiVersion.equals(API_VERSION) || !kind.equals("AdmissionReview")) {
      throw invalid("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
          + apiVersion + ", Kind=" + kind);
    }
    boolean hasPatch = patch != null && patch.length > 0;
    boolean hasPatchType = response.hasNonNull("patchType");
    if (hasPatch && !hasPatchType) {
      throw invalid("webhook returned response.patch but not response.patchType");
    }
    if (!hasPatch && hasPatchType) {
      throw invalid("webhook returned response.patchType but not response.patch");
    }
    if (hasPatchType && response.get("patchType").asText("").isEmpty()) {
      throw invalid("webhook returned invalid response.patchType of \"\"");
    }
    return new Response(response.path("allowed").asBoolean(false), hasPatch ? patch : null,
        hasPatchType ? response.get("patchType").asText() : "", response.path("status"));
  }

  private static CallException invalid(String why) {
    return new CallException("received invalid webhook response: " + why);
  }

  /**
   * The error a denial becomes: the webhook's {@code status} code (403 when absent), its message
   * prefixed with {@code admission webhook "NAME" denied the request}, under
   * {@code pods "POD" is forbidden} (or {@code Internal error occurred} for a 500).
   */
  static ApiError denial(String webhook, JsonNode status, String podName) {
    int code = status.path("code").asInt(0) == 0 ? 403 : status.path("code").asInt();
    String name = podName.isEmpty() ? "Unknown" : podName;
    String deniedBy = "admission webhook \"" + webhook + "\" denied the request";
    String message = status.path("message").asText("");
    String reason = status.path("reason").asText("");
    String explained = !message.isEmpty() ? deniedBy + ": " + message
        : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation";
    String prefix = code == 500 ? "Internal error occurred" : "pods \"" + name + "\" is forbidden";
    String statusReason = !reason.isEmpty() ? reason : code == 500 ? "InternalError" : "Forbidden";
    return new ApiError(code, statusReason, prefix + ": " + explained, "pods", name, "");
  }
}
