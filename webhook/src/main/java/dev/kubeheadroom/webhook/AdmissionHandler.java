package dev.kubeheadroom.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.projection.BindError;
import dev.kubeheadroom.projection.NullElements;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AdmissionReview v1 request JSON → AdmissionReview response JSON. The answer is always
 * {@code allowed: true} (a pod is never blocked); it carries a base64 JSONPatch when
 * {@link BirthLimit} seeds a limit. Anything that goes wrong inside (unreadable review, a pod the
 * model cannot bind, a bug) admits the pod unchanged and counts {@code result=error}; an
 * unreadable review is answered with an empty {@code uid}, which the API server treats as a
 * webhook failure and, with {@code failurePolicy: Ignore}, admits the pod unchanged too.
 */
public final class AdmissionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionHandler.class);
  private static final String API_VERSION = "admission.k8s.io/v1";
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private final ClusterState state;
  private final WebhookMetrics metrics;

  public AdmissionHandler(ClusterState state, WebhookMetrics metrics) {
    this.state = state;
    this.metrics = metrics;
  }

  /**
   * Runs one made-up pod through the whole decision once, uncounted, so the first real request
   * does not pay for class loading (binding the first fabric8 Pod takes seconds on a busy node,
   * more than the API server waits).
   */
  public void prime() {
    try {
      Pod pod = MAPPER.readValue(PRIME_POD, Pod.class);
      NamespaceInfo ns = new NamespaceInfo("prime", Map.of(
          HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
      BirthDecision d = BirthLimit.decide(pod, ns, PRIME_CONFIG);
      if (d instanceof BirthDecision.Seed seed) {
        MAPPER.writeValueAsBytes(PatchOp.toJson(seed.patch()));
      }
      response("prime", null);
    } catch (Exception e) {
      LOG.debug("Priming the admission handler failed (harmless): {}", e.toString());
    }
  }

  private static final String PRIME_POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
      + "\"metadata\":{\"name\":\"prime\",\"namespace\":\"prime\",\"annotations\":{\"a\":\"b\"}},"
      + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"resources\":"
      + "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"1Mi\"}},\"resizePolicy\":[{\"resourceName\":"
      + "\"cpu\",\"restartPolicy\":\"NotRequired\"}]}]}}";
  private static final ClusterConfig PRIME_CONFIG =
      ClusterConfig.DEFAULTS.withDryRun(false);

  /** Never throws: any problem is an unchanged, counted admission. */
  public byte[] handle(byte[] body) {
    return answer(body).json();
  }

  /**
   * The response's bytes, and when the pod was admitted unchanged after an error, that error in one
   * line naming the field ({@code request.object.spec.containers[0].resources.limits.cpu: not a
   * quantity}), as it is logged.
   */
  record Answer(byte[] json, String problem) {}

  Answer answer(byte[] body) {
    String uid = "";
    String pod = "?";
    try {
      JsonNode review = MAPPER.readTree(body);
      JsonNode request = review == null ? null : review.get("request");
      if (request == null || !request.isObject()) {
        throw new IllegalArgumentException("request: must be an object");
      }
      uid = request.path("uid").asText("");
      pod = podLabel(request);
      Outcome outcome = decide(request);
      if (outcome.patch() == null) {
        metrics.unchanged(outcome.reason());
        return new Answer(response(uid, null), null);
      }
      metrics.mutated();
      return new Answer(response(uid, outcome.patch()), null);
    } catch (Exception | StackOverflowError e) {
      metrics.unchanged(AllowReason.ERROR.wireName());
      String problem = problem(e);
      LOG.warn("Admitting Pod({}) unchanged after an error (uid {}): {}", pod, uid.isEmpty() ? "?" : uid, problem);
      return new Answer(response(uid, null), problem);
    }
  }

  /** The error in one line, named by its field where it has one; an unexpected one by its type too. */
  private static String problem(Throwable e) {
    if (e instanceof JsonProcessingException json) {
      return BindError.describe(json, "request.object.");
    }
    if (e instanceof StackOverflowError) {
      return "the review is nested too deeply";
    }
    if (e instanceof IllegalArgumentException) {
      return String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
    }
    return e.toString().replaceAll("\\s+", " "); // a bug: the type says where to look
  }

  /** @param reason the wire name of why the pod is admitted unchanged (null with a patch) */
  private record Outcome(String reason, byte[] patch) {}

  private Outcome decide(JsonNode request) throws Exception {
    JsonNode kind = request.path("kind");
    boolean podCreate = "Pod".equals(kind.path("kind").asText())
        && kind.path("group").asText("").isEmpty()
        && "CREATE".equals(request.path("operation").asText())
        && request.path("subResource").asText("").isEmpty();
    if (!podCreate) {
      return new Outcome(AllowReason.NOT_POD_CREATE.wireName(), null);
    }
    if (!state.warm()) {
      return new Outcome(AllowReason.WARMING_UP.wireName(), null);
    }
    JsonNode object = request.get("object");
    if (object == null || !object.isObject()) {
      throw new IllegalArgumentException("request.object: must be an object");
    }
    Pod pod = MAPPER.treeToValue(object, Pod.class);
    Optional<String> nullElement = NullElements.firstNull(pod);
    if (nullElement.isPresent()) {
      throw new IllegalArgumentException("request.object." + nullElement.get() + ": must not be null");
    }
    String namespace = request.path("namespace").asText("");
    if (namespace.isEmpty() && pod.getMetadata() != null && pod.getMetadata().getNamespace() != null) {
      namespace = pod.getMetadata().getNamespace();
    }
    NamespaceInfo ns = state.namespace(namespace).orElse(null);
    BirthDecision decision = BirthLimit.decide(pod, ns, state.config());
    if (decision instanceof BirthDecision.Seed seed) {
      LOG.debug("Pod({}/{}) seeded: {}", namespace, podName(pod, request), seed.limits());
      return new Outcome(null, MAPPER.writeValueAsBytes(PatchOp.toJson(seed.patch())));
    }
    return new Outcome(((BirthDecision.Unchanged) decision).reason(), null);
  }

  /** {@code namespace/name} of the review's pod for a log line ({@code generateName*} before naming). */
  private static String podLabel(JsonNode request) {
    JsonNode meta = request.path("object").path("metadata");
    String name = request.path("name").asText(meta.path("name").asText(""));
    if (name.isEmpty()) {
      name = meta.path("generateName").asText("?") + "*";
    }
    return request.path("namespace").asText(meta.path("namespace").asText("?")) + "/" + name;
  }

  private static String podName(Pod pod, JsonNode request) {
    String name = pod.getMetadata() == null ? null : pod.getMetadata().getName();
    if (name == null || name.isEmpty()) {
      name = request.path("name").asText("");
    }
    if (name.isEmpty() && pod.getMetadata() != null && pod.getMetadata().getGenerateName() != null) {
      name = pod.getMetadata().getGenerateName() + "*";
    }
    return name;
  }

  private static byte[] response(String uid, byte[] patch) {
    ObjectNode review = MAPPER.createObjectNode();
    review.put("apiVersion", API_VERSION);
    review.put("kind", "AdmissionReview");
    ObjectNode response = review.putObject("response");
    response.put("uid", uid);
    response.put("allowed", true);
    if (patch != null) {
      response.put("patchType", "JSONPatch");
      response.put("patch", Base64.getEncoder().encodeToString(patch));
    }
    try {
      return ASCII.writeValueAsBytes(review);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an ObjectNode of strings always writes", e);
    }
  }

  /**
   * Writes every non-ASCII character of the uid as a JSON escape: a lone surrogate ({@code
   * "\\ud800"}) is then echoed as it came, and the API server decodes both alike (as U+FFFD); written
   * as UTF-8 it would become {@code ?} and no longer match the request's uid.
   */
  private static final ObjectWriter ASCII = MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);
}
