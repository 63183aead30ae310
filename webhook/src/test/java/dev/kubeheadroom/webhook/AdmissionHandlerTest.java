package dev.kubeheadroom.webhook;

import static dev.kubeheadroom.webhook.Fixtures.TEAM_A;
import static dev.kubeheadroom.webhook.Fixtures.bytes;
import static dev.kubeheadroom.webhook.Fixtures.config;
import static dev.kubeheadroom.webhook.Fixtures.enforcing;
import static dev.kubeheadroom.webhook.Fixtures.patch;
import static dev.kubeheadroom.webhook.Fixtures.patchedPod;
import static dev.kubeheadroom.webhook.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.webhook.WebhookMetrics.Result;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real AdmissionReview v1 requests (fixtures) through the handler. docs/design/headroom-design.txt §6.5; rules in
 * {@link BirthLimit}. Every answer must allow the pod.
 */
class AdmissionHandlerTest {
  private final ClusterState state = new ClusterState();
  private WebhookMetrics metrics;
  private AdmissionHandler handler;

  @BeforeEach
  void warmStateWithAManagedNamespace() {
    metrics = new WebhookMetrics(new SimpleMeterRegistry());
    handler = new AdmissionHandler(state, metrics);
    state.putNamespace(TEAM_A);
    state.putNamespace(new NamespaceInfo("team-bogus", Map.of("kube-headroom.dev/mode", "true"), 0));
    state.putNamespace(new NamespaceInfo("team-lr", Map.of("kube-headroom.dev/mode", "managed"), 800));
    state.putConfig(enforcing());
    state.markWarm();
  }

  private JsonNode answer(byte[] review) {
    JsonNode response = tree(handler.handle(review));
    assertThat(response.path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(response.path("kind").asText()).isEqualTo("AdmissionReview");
    assertThat(response.path("response").path("allowed").asBoolean(false)).as("allowed").isTrue();
    return response;
  }

  private JsonNode answer(String fixture) {
    JsonNode response = answer(bytes(fixture));
    String uid = Fixtures.review(fixture).get("request").get("uid").asText();
    assertThat(response.path("response").path("uid").asText()).isEqualTo(uid);
    return response;
  }

  private void assertUnchanged(JsonNode response, AllowReason reason) {
    assertAdmittedAsIs(response);
    assertThat(metrics.unchangedCount(reason)).as("counted as " + reason).isEqualTo(1.0);
  }

  private void assertUnchanged(JsonNode response, Ineligibility gate) {
    assertAdmittedAsIs(response);
    assertThat(metrics.unchangedCount(gate)).as("counted as " + gate).isEqualTo(1.0);
  }

  private static void assertAdmittedAsIs(JsonNode response) {
    assertThat(response.path("response").has("patch")).as("has a patch").isFalse();
    assertThat(response.path("response").has("patchType")).isFalse();
  }

  @Test
  void managedPodWithRequestsAndNoLimitsGetsTwiceItsRequestAsItsLimit() {
    JsonNode response = answer("pod-requests-no-limits.json");

    assertThat(response.path("response").path("patchType").asText()).isEqualTo("JSONPatch");
    assertThat(patch(response)).isEqualTo(tree("""
        [{"op":"add","path":"/spec/containers/0/resources/limits","value":{"cpu":"1"}},
         {"op":"add","path":"/spec/containers/1/resources/limits/cpu","value":"200m"}]"""
        .getBytes(StandardCharsets.UTF_8)));
    JsonNode pod = patchedPod("pod-requests-no-limits.json", response);
    assertThat(pod.at("/spec/containers/1/resources/limits/memory").asText()).isEqualTo("128Mi");
    assertThat(PodProjection.computeQosClass(Fixtures.JSON.convertValue(pod, Pod.class))).isEqualTo("Burstable");
    assertThat(metrics.requestCount(Result.MUTATED)).isEqualTo(1.0);
  }

  @Test
  void containerThatAlreadyHasACpuLimitIsLeftAloneWhileItsNeighbourIsSeeded() {
    JsonNode response = answer("pod-one-container-limited.json");

    assertThat(patch(response)).isEqualTo(tree("""
        [{"op":"add","path":"/spec/containers/1/resources/limits","value":{"cpu":"500m"}}]"""
        .getBytes(StandardCharsets.UTF_8)));
    assertThat(patchedPod("pod-one-container-limited.json", response)
        .at("/spec/containers/0/resources/limits/cpu").asText()).isEqualTo("2");
  }

  @Test
  void bestEffortPodIsAdmittedUnchanged() {
    assertUnchanged(answer("pod-best-effort.json"), Ineligibility.NOT_BURSTABLE);
  }

  @Test
  void podLabelledUnmanagedIsAdmittedUnchanged() {
    assertUnchanged(answer("pod-opted-out.json"), Ineligibility.POD_OPTED_OUT);
  }

  @Test
  void namespaceWithANonKeywordModeLabelIsNotManaged() {
    assertUnchanged(answer(Fixtures.inNamespace("pod-requests-no-limits.json", "team-bogus")),
        Ineligibility.NAMESPACE_NOT_MANAGED);
  }

  @Test
  void namespaceMissingFromTheTopicIsNotManaged() {
    assertUnchanged(answer(Fixtures.inNamespace("pod-requests-no-limits.json", "team-new")),
        AllowReason.NAMESPACE_UNKNOWN);
  }

  @Test
  void podWithARestartContainerCpuResizePolicyIsAdmittedUnchanged() {
    assertUnchanged(answer("pod-restart-container.json"), Ineligibility.RESIZE_RESTARTS_CONTAINER);
  }

  @Test
  void dryRunConfigSeedsNothing() {
    state.putConfig(enforcing().withDryRun(true));
    assertUnchanged(answer("pod-requests-no-limits.json"), AllowReason.DRY_RUN);
  }

  @Test
  void withNoHeadroomConfigTheDryRunDefaultsSeedNothing() {
    state.removeConfig();
    assertUnchanged(answer("pod-requests-no-limits.json"), AllowReason.DRY_RUN);
  }

  @Test
  void disabledWebhookSeedsNothing() {
    state.putConfig(config(false, 2, 10, 10));
    assertUnchanged(answer("pod-requests-no-limits.json"), AllowReason.WEBHOOK_DISABLED);
  }

  @Test
  void initialMultiplierOfOneSeedsNothing() {
    state.putConfig(config(true, 1, 10, 10));
    assertUnchanged(answer("pod-requests-no-limits.json"), AllowReason.NO_BOOST);
  }

  @Test
  void initialMultiplierIsCappedByMaxMultiplier() {
    state.putConfig(config(true, 5, 3, 10));

    JsonNode pod = patchedPod("pod-requests-no-limits.json", answer("pod-requests-no-limits.json"));

    assertThat(pod.at("/spec/containers/0/resources/limits/cpu").asText()).isEqualTo("1500m");
    assertThat(pod.at("/spec/containers/1/resources/limits/cpu").asText()).isEqualTo("300m");
  }

  @Test
  void maxCpuAnnotationCapsThePodSplitProRataToRequests() {
    // 500m + 100m requests, ×2 would be 1000m + 200m; the pod cap 900m splits 750m / 150m.
    JsonNode pod = patchedPod("pod-max-cpu.json", answer("pod-max-cpu.json"));

    assertThat(pod.at("/spec/containers/0/resources/limits/cpu").asText()).isEqualTo("750m");
    assertThat(pod.at("/spec/containers/1/resources/limits/cpu").asText()).isEqualTo("150m");
  }

  @Test
  void unparseableMaxCpuAnnotationIsIgnored() {
    JsonNode pod = patchedPod("pod-max-cpu-unparseable.json", answer("pod-max-cpu-unparseable.json"));

    assertThat(pod.at("/spec/containers/0/resources/limits/cpu").asText()).isEqualTo("1");
  }

  @Test
  void limitRangeContainerMaxCapsTheSeededLimit() {
    state.putConfig(config(true, 4, 10, 10));

    JsonNode response = answer(Fixtures.inNamespace("pod-requests-no-limits.json", "team-lr"));

    assertThat(patch(response).at("/0/value/cpu").asText()).isEqualTo("800m");
    assertThat(patch(response).at("/1/value").asText()).isEqualTo("400m");
  }

  @Test
  void limitRangePodMaxAndRatioCapTheSeededLimitsSoLimitRangerAdmitsThePod() {
    // LimitRanger (plugin/pkg/admission/limitranger/admission.go) validates the pod after this
    // webhook: Pod max 900m over app 500m + log-shipper 100m, and a limit/request ratio of 1.6
    state.putNamespace(new NamespaceInfo("team-pod", Map.of("kube-headroom.dev/mode", "managed"), 0, 900, 1_600));
    state.putConfig(config(true, 4, 10, 10));

    JsonNode response = answer(Fixtures.inNamespace("pod-requests-no-limits.json", "team-pod"));

    // the ratio allows 800m and 160m; the Pod max's 900m splits 750m / 150m, which binds
    assertThat(patch(response).at("/0/value/cpu").asText()).isEqualTo("750m");
    assertThat(patch(response).at("/1/value").asText()).isEqualTo("150m");
  }

  @Test
  void containerWhoseCappedLimitWouldEqualItsRequestGetsNoLimitSoThePodStaysBurstable() {
    // cpu 1 capped at 1 by max-cpu, memory request == limit: a cpu limit of 1 would make it
    // Guaranteed, which a later resize could never undo.
    assertUnchanged(answer("pod-capped-at-request.json"), AllowReason.NOTHING_TO_SEED);
  }

  @Test
  void restartableInitContainerIsSeededAndPlainInitContainerIsNot() {
    JsonNode response = answer("pod-sidecar.json");

    assertThat(patch(response)).isEqualTo(tree("""
        [{"op":"add","path":"/spec/initContainers/1/resources/limits","value":{"cpu":"400m"}},
         {"op":"add","path":"/spec/containers/0/resources/limits","value":{"cpu":"1"}}]"""
        .getBytes(StandardCharsets.UTF_8)));
    assertThat(patchedPod("pod-sidecar.json", response).at("/spec/initContainers/0/resources/limits").isMissingNode())
        .isTrue();
  }

  @Test
  void podUpdateIsAdmittedUnchanged() {
    assertUnchanged(answer("pod-update.json"), AllowReason.NOT_POD_CREATE);
  }

  @Test
  void beforeTheTopicsAreReadEveryPodIsAdmittedUnchanged() {
    ClusterState cold = new ClusterState();
    cold.putNamespace(TEAM_A);
    cold.putConfig(enforcing());
    handler = new AdmissionHandler(cold, metrics);

    assertUnchanged(answer("pod-requests-no-limits.json"), AllowReason.WARMING_UP);
  }

  @Test
  void podTheModelCannotReadIsAdmittedUnchangedWithItsUidAndCountedAsAnError() {
    assertUnchanged(answer("pod-unbindable.json"), AllowReason.ERROR);
    assertThat(metrics.requestCount(Result.ERROR)).isEqualTo(1.0);
  }

  @Test
  void anErrorIsLoggedInOneLineNamingTheFieldNotAJavaType() {
    assertThat(handler.answer(bytes("pod-unbindable.json")).problem())
        .isEqualTo("request.object.spec.containers: expected an array, got a string");
    assertThat(handler.answer("{\"request\": {\"uid\": \"u\",\n \"kind\": {".getBytes(StandardCharsets.UTF_8)).problem())
        .isEqualTo("Unexpected end-of-input: expected close marker for Object (start marker at [line: 2, column: 10])"
            + " (line 2, column 11)");
    assertThat(handler.answer("[]".getBytes(StandardCharsets.UTF_8)).problem()).isEqualTo("request: must be an object");
    // A null element, which no API server sends: named, not a NullPointerException from the birth limit
    ObjectNode review = Fixtures.review("pod-requests-no-limits.json");
    ((ArrayNode) review.at("/request/object/spec/containers")).insertNull(1);
    assertThat(handler.answer(review.toString().getBytes(StandardCharsets.UTF_8)).problem())
        .isEqualTo("request.object.spec.containers[1]: must not be null");
  }

  @Test
  void bodyThatIsNotJsonIsAllowedAndCountedAsAnError() {
    JsonNode response = answer("{\"apiVersion\": \"admission.k8s.io/v1\", \"req".getBytes(StandardCharsets.UTF_8));

    assertThat(response.path("response").path("uid").asText()).isEmpty();
    assertUnchanged(response, AllowReason.ERROR);
  }

  @Test
  void excludedNamespaceIsNotManagedEvenWhenLabelled() {
    state.putNamespace(new NamespaceInfo("kube-system", Map.of("kube-headroom.dev/mode", "managed"), 0));
    assertUnchanged(answer(Fixtures.inNamespace("pod-requests-no-limits.json", "kube-system")),
        Ineligibility.NAMESPACE_NOT_MANAGED);
  }

}
