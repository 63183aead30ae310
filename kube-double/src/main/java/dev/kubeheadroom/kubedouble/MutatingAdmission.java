package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.AdmissionCall.Outcome;
import dev.kubeheadroom.kubedouble.AdmissionReviews.Response;
import dev.kubeheadroom.kubedouble.AdmissionReviews.User;
import dev.kubeheadroom.kubedouble.WebhookCaller.CallException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's mutating-admission step for a pod CREATE, driven by the
 * MutatingWebhookConfigurations stored in the double ({@code webhook/mutating/dispatcher.go},
 * {@code webhook/generic/webhook.go}): configurations in name order, their webhooks in order; each
 * webhook whose namespace selector, object selector and rules match gets an AdmissionReview over
 * HTTPS and may patch the pod the next one sees.
 *
 * <ul>
 *   <li>a call error, timeout or invalid response: skipped under {@code failurePolicy: Ignore},
 *       500 {@code Internal error occurred: failed calling webhook "NAME": ...} under Fail;
 *   <li>{@code allowed: false}: the create is refused with the webhook's status;
 *   <li>a JSON patch that does not apply: 500, whatever the failurePolicy (it is not the call that
 *       failed).
 * </ul>
 *
 * <p>The configurations are read from the store on every create, so a changed {@code caBundle}
 * is used at once. {@code reinvocationPolicy: IfNeeded} is not modelled: every webhook runs once.
 */
final class MutatingAdmission {
  private static final Logger LOG = LoggerFactory.getLogger(MutatingAdmission.class);
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private static final String CONFIGURATIONS = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";

  private final Function<String, List<ObjectNode>> list;
  private final Function<String, Optional<ObjectNode>> get;
  private final ServiceRoutes routes = new ServiceRoutes();
  private final List<AdmissionCall> calls = new CopyOnWriteArrayList<>();

  /**
   * @param list the stored objects of a collection path, read consistently
   * @param get the stored object at a path
   */
  MutatingAdmission(Function<String, List<ObjectNode>> list, Function<String, Optional<ObjectNode>> get) {
    this.list = list;
    this.get = get;
  }

  ServiceRoutes routes() {
    return routes;
  }

  List<AdmissionCall> calls() {
    return List.copyOf(calls);
  }

  void clearCalls() {
    calls.clear();
  }

  /**
   * Runs the chain on a pod about to be created in {@code api.namespace()}.
   *
   * @return the pod as the webhooks left it ({@code pod} itself when none was called)
   * @throws ApiError.Failure when the create must be refused
   */
  ObjectNode admit(ApiRequest api, ObjectNode pod, User user) {
    ObjectNode current = pod;
    for (MutatingWebhook hook : webhooks()) {
      if (shouldCall(hook, api.namespace(), current)) {
        if (!current.path("metadata").has("namespace") && current.path("metadata") instanceof ObjectNode meta) {
          meta.put("namespace", api.namespace()); // the API server fills it in from the path before admission
        }
        current = call(hook, api, current, user);
      }
    }
    return current;
  }

  private List<MutatingWebhook> webhooks() {
    List<ObjectNode> configurations = new ArrayList<>(list.apply(CONFIGURATIONS));
    configurations.sort(Comparator.comparing(c -> c.path("metadata").path("name").asText("")));
    List<MutatingWebhook> hooks = new ArrayList<>();
    configurations.forEach(c -> hooks.addAll(MutatingWebhook.of(c)));
    return hooks;
  }

  /**
   * {@code ShouldCallHook}: the namespace selector, then the object selector, then the rules; an
   * error from a selector (an unparsable one, a namespace that does not exist) only counts for a
   * webhook whose selectors did not already exclude the request and whose rules match.
   */
  private boolean shouldCall(MutatingWebhook hook, String namespace, ObjectNode pod) {
    ApiError namespaceError = null;
    try {
      if (!namespaceMatches(hook, namespace)) {
        return false;
      }
    } catch (ApiError.Failure failure) {
      namespaceError = failure.error();
    }
    ApiError objectError = null;
    try {
      if (!LabelSelectors.matches(hook.objectSelector(), labels(pod.path("metadata").path("labels")))) {
        return false;
      }
    } catch (IllegalArgumentException e) {
      objectError = internal(e.getMessage());
    }
    if (!hook.matchesRules("CREATE", "", "v1", "pods", "", true)) {
      return false;
    }
    if (namespaceError != null) {
      throw namespaceError.asFailure();
    }
    if (objectError != null) {
      throw objectError.asFailure();
    }
    return true;
  }

  private boolean namespaceMatches(MutatingWebhook hook, String namespace) {
    JsonNode selector = hook.namespaceSelector();
    if (!selector.isObject() || (selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty())) {
      return true; // an empty selector needs no lookup (namespace/matcher.go)
    }
    ObjectNode stored = get.apply("/api/v1/namespaces/" + namespace)
        .orElseThrow(() -> ApiError.notFound("namespaces", namespace).asFailure());
    try {
      return LabelSelectors.matches(selector, labels(stored.path("metadata").path("labels")));
    } catch (IllegalArgumentException e) {
      throw internal(e.getMessage()).asFailure();
    }
  }

  private ObjectNode call(MutatingWebhook hook, ApiRequest api, ObjectNode pod, User user) {
    long started = System.nanoTime();
    String podName = pod.path("metadata").path("name").asText("");
    try {
      checkDryRun(hook, api);
      if (!hook.acceptsReviewV1()) {
        throw new CallException("could not create admission objects: webhook does not accept known "
            + "AdmissionReview versions (v1, v1beta1)");
      }
      String uid = UUID.randomUUID().toString();
      byte[] body = AdmissionReviews.request(uid, api, pod, user).toString().getBytes(StandardCharsets.UTF_8);
      byte[] answer = WebhookCaller.post(hook.target(routes), hook.caBundle(), body, hook.timeout());
      Response response = AdmissionReviews.verify(uid, answer);
      if (!response.allowed()) {
        ApiError denial = AdmissionReviews.denial(hook.name(), response.result(), podName);
        record(hook, api, podName, Outcome.DENIED, denial.message(), started);
        throw denial.asFailure();
      }
      Optional<ArrayNode> patch = decodePatch(response);
      if (patch.isEmpty()) {
        record(hook, api, podName, Outcome.UNCHANGED, "", started);
        return pod;
      }
      ObjectNode patched = apply(hook, api, podName, pod, patch.get(), started);
      record(hook, api, podName, Outcome.MUTATED, "", started);
      return patched;
    } catch (CallException e) {
      String message = "failed calling webhook \"" + hook.name() + "\": " + e.getMessage();
      if (hook.failsOpen()) {
        LOG.debug("Failed calling webhook, failing open {}: {}", hook.name(), message);
        record(hook, api, podName, Outcome.FAILED_OPEN, message, started);
        return pod;
      }
      record(hook, api, podName, Outcome.FAILED_CLOSED, message, started);
      throw internal(message).asFailure();
    }
  }

  /** A dry-run create may only reach webhooks that declare no side effects (dispatcher.go). */
  private static void checkDryRun(MutatingWebhook hook, ApiRequest api) throws CallException {
    if (!AdmissionReviews.dryRun(api)) {
      return;
    }
    Optional<String> sideEffects = hook.sideEffects();
    if (sideEffects.isEmpty()) {
      throw new CallException("Webhook SideEffects is nil");
    }
    if (!sideEffects.get().equals("None") && !sideEffects.get().equals("NoneOnDryRun")) {
      throw ApiError.badRequest("admission webhook \"" + hook.name() + "\" does not support dry run").asFailure();
    }
  }

  /** The JSON patch of an allowed response, empty when there is nothing to apply. */
  private static Optional<ArrayNode> decodePatch(Response response) throws CallException {
    if (response.patch() == null) {
      return Optional.empty();
    }
    JsonNode patch;
    try {
      patch = JSON.readTree(response.patch());
    } catch (IOException e) {
      throw new CallException("received undecodable patch in webhook response: " + e.getMessage());
    }
    if (!(patch instanceof ArrayNode operations)) {
      throw new CallException("received undecodable patch in webhook response: "
          + "json: cannot unmarshal " + patch.getNodeType().name().toLowerCase() + " into Go value of type jsonpatch.Patch");
    }
    if (operations.isEmpty()) {
      return Optional.empty();
    }
    if (!response.patchType().equals("JSONPatch")) {
      throw new CallException("unsupported patch type \"" + response.patchType() + "\"");
    }
    return Optional.of(operations);
  }

  /**
   * Applies the patch; a patch that does not apply is an internal error of the create (not a call
   * failure, so not covered by failurePolicy). The result is defaulted again, as the API server
   * defaults the decoded object after each webhook.
   */
  private ObjectNode apply(MutatingWebhook hook, ApiRequest api, String podName, ObjectNode pod, ArrayNode patch,
      long started) {
    JsonNode patched;
    try {
      patched = JsonPatch.apply(patch, pod.deepCopy());
    } catch (RuntimeException e) {
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      record(hook, api, podName, Outcome.PATCH_FAILED, message, started);
      throw internal(message).asFailure();
    }
    if (!(patched instanceof ObjectNode object) || !object.path("metadata").isObject()) {
      String message = "admission webhook \"" + hook.name() + "\" patched the pod into something that is not a pod";
      record(hook, api, podName, Outcome.PATCH_FAILED, message, started);
      throw internal(message).asFailure();
    }
    PodDefaults.defaultResources(object.path("spec"));
    return object;
  }

  private void record(MutatingWebhook hook, ApiRequest api, String podName, Outcome outcome, String detail,
      long started) {
    calls.add(new AdmissionCall(hook.configuration(), hook.name(), api.namespace(), podName, outcome, detail,
        Duration.ofNanos(System.nanoTime() - started)));
  }

  private static ApiError internal(String message) {
    return new ApiError(500, "InternalError", "Internal error occurred: " + message, "", "", "");
  }

  private static Map<String, String> labels(JsonNode labels) {
    Map<String, String> out = new HashMap<>();
    labels.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }
}
