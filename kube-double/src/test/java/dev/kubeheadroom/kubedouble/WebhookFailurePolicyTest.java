package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.AdmissionFixtures.SERVICE;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.SERVICE_HOST;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.SERVICE_NAMESPACE;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.configuration;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.create;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.install;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.namespace;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.pod;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.webhook;
import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestWebhookServer.add;
import static dev.kubeheadroom.kubedouble.TestWebhookServer.allow;
import static dev.kubeheadroom.kubedouble.TestWebhookServer.patch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.AdmissionCall.Outcome;
import dev.kubeheadroom.kubedouble.TestWebhookServer.Reply;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a failing, invalid or denying webhook does to a pod CREATE, under each failurePolicy
 * ({@code staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go},
 * {@code .../webhook/request/admissionreview.go} {@code VerifyAdmissionResponse},
 * {@code .../webhook/errors/statuserror.go}).
 */
class WebhookFailurePolicyTest {
  private static final String HOOK = "limits.example.dev";
  /** Pods carry a label, so the webhook's patch (add one more label) applies. */
  private static final Map<String, String> APP = Map.of("app", "web");
  private final TestCertificates.Ca ca = TestCertificates.newCa("webhook-ca");
  private ApiServerDouble api;
  private TestWebhookServer server;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    server = TestWebhookServer.start(ca.issue(SERVICE_HOST));
    api.routeService(SERVICE_NAMESPACE, SERVICE, 443, server.address());
    namespace(api, NS, Map.of());
    server.respond(review -> Reply.json(patch(review, add("/metadata/labels/admitted", "yes"))));
  }

  @AfterEach
  void stop() {
    server.close();
    api.close();
  }

  private static MutatingWebhookBuilder ignoring(String caBundle) {
    return webhook(HOOK, caBundle).withFailurePolicy("Ignore");
  }

  private static MutatingWebhookConfiguration of(MutatingWebhookBuilder hook) {
    return configuration("limits", hook.build());
  }

  /** The create is admitted as sent: stored without the webhook's label. */
  private void assertCreatedUnchanged(String name) {
    Pod stored = api.pod(NS, name).orElseThrow();
    assertThat(stored.getMetadata().getLabels()).doesNotContainKey("admitted");
  }

  private static void assertRefused(ThrowingCallable create, int code, Consumer<String> message) {
    assertThatThrownBy(create).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
      assertThat(e.getCode()).isEqualTo(code);
      message.accept(e.getStatus().getMessage());
    });
  }

  @Test
  void aTimeoutIsIgnoredUnderIgnore() {
    // dispatcher.go: ErrCallingWebhook + failurePolicy Ignore -> continue with the next webhook
    server.respond(review -> new Reply(200, allow(review).toString(), Duration.ofSeconds(30)));
    install(api, of(ignoring(ca.caBundle()).withTimeoutSeconds(1)));

    create(api, pod("web-1", APP));

    assertCreatedUnchanged("web-1");
    assertThat(api.admissionCalls()).singleElement().satisfies(call -> {
      assertThat(call.outcome()).isEqualTo(Outcome.FAILED_OPEN);
      assertThat(call.detail()).endsWith("context deadline exceeded");
      assertThat(call.took()).isGreaterThanOrEqualTo(Duration.ofSeconds(1)).isLessThan(Duration.ofSeconds(20));
    });
  }

  @Test
  void aTimeoutRefusesTheCreateUnderFail() {
    // dispatcher.go: ErrCallingWebhook under Fail -> apierrors.NewInternalError(err)
    server.respond(review -> new Reply(200, allow(review).toString(), Duration.ofSeconds(30)));
    install(api, of(webhook(HOOK, ca.caBundle()).withTimeoutSeconds(1)));

    assertRefused(() -> create(api, pod("web-1", APP)), 500, message -> assertThat(message).isEqualTo(
        "Internal error occurred: failed calling webhook \"limits.example.dev\": failed to call webhook: "
            + "Post \"https://svc.webhooks.svc:443/mutate?timeout=1s\": context deadline exceeded"));
    assertThat(api.pod(NS, "web-1")).isEmpty();
    assertThat(api.admissionCalls()).extracting(AdmissionCall::outcome).containsExactly(Outcome.FAILED_CLOSED);
  }

  @Test
  void aServerCertificateFromAnUnknownCaIsACallFailure() {
    // the webhook client trusts only clientConfig.caBundle (webhook/config/client.go)
    TestCertificates.Ca stranger = TestCertificates.newCa("someone-else");
    install(api, of(ignoring(stranger.caBundle())));

    create(api, pod("web-1", APP));

    assertCreatedUnchanged("web-1");
    assertThat(api.admissionCalls()).singleElement().satisfies(call -> {
      assertThat(call.outcome()).isEqualTo(Outcome.FAILED_OPEN);
      assertThat(call.detail()).contains("tls: failed to verify certificate");
    });
    api.client().admissionRegistration().v1().mutatingWebhookConfigurations().withName("limits").delete();
    install(api, of(webhook(HOOK, stranger.caBundle())));
    assertRefused(() -> create(api, pod("web-2", APP)), 500,
        message -> assertThat(message).contains("tls: failed to verify certificate"));
  }

  @Test
  void theCertificateMustNameTheServiceAsNameNamespaceSvc() {
    // webhook/config/client.go: a service reference is verified as ServerName NAME.NAMESPACE.svc
    server.serve(ca.issue("other.webhooks.svc", "localhost"));
    install(api, of(webhook(HOOK, ca.caBundle())));

    assertRefused(() -> create(api, pod("web-1", APP)), 500,
        message -> assertThat(message).contains("failed calling webhook \"limits.example.dev\"")
            .contains("tls: failed to verify certificate"));
  }

  @Test
  void aRotatedCaIsUsedFromTheNextCreate() {
    // the configuration is read on every admission (the API server watches it), so the caBundle a
    // cert-manager CA injector writes applies to the next call
    install(api, of(webhook(HOOK, ca.caBundle())));
    create(api, pod("before", APP));
    TestCertificates.Ca renewed = TestCertificates.newCa("webhook-ca-2");
    server.serve(renewed.issue(SERVICE_HOST));

    assertRefused(() -> create(api, pod("between", APP)), 500,
        message -> assertThat(message).contains("tls: failed to verify certificate"));
    var stored = api.client().admissionRegistration().v1().mutatingWebhookConfigurations().withName("limits").get();
    stored.getWebhooks().get(0).getClientConfig().setCaBundle(renewed.caBundle());
    api.client().admissionRegistration().v1().mutatingWebhookConfigurations().resource(stored).update();
    create(api, pod("after", APP));

    assertThat(api.pod(NS, "after").orElseThrow().getMetadata().getLabels()).containsEntry("admitted", "yes");
    assertThat(api.admissionCalls()).extracting(AdmissionCall::outcome)
        .containsExactly(Outcome.MUTATED, Outcome.FAILED_CLOSED, Outcome.MUTATED);
  }

  @Test
  void aResponseWithAnotherUidIsInvalidAndFollowsTheFailurePolicy() {
    // request/admissionreview.go VerifyAdmissionResponse: response.uid must be the request's
    server.respond(review -> {
      ObjectNode answer = allow(review);
      ((ObjectNode) answer.get("response")).put("uid", "not-the-request");
      return Reply.json(answer);
    });
    install(api, of(ignoring(ca.caBundle())));

    create(api, pod("web-1", APP));
    assertCreatedUnchanged("web-1");

    api.client().admissionRegistration().v1().mutatingWebhookConfigurations().withName("limits").delete();
    install(api, of(webhook(HOOK, ca.caBundle())));
    assertRefused(() -> create(api, pod("web-2", APP)), 500, message -> assertThat(message)
        .startsWith("Internal error occurred: failed calling webhook \"limits.example.dev\": "
            + "received invalid webhook response: expected response.uid=\"")
        .endsWith("\", got \"not-the-request\""));
  }

  @Test
  void aPatchWithoutPatchTypeIsAnInvalidResponse() {
    // request/admissionreview.go: "webhook returned response.patch but not response.patchType"
    server.respond(review -> {
      ObjectNode answer = patch(review, add("/metadata/labels/admitted", "yes"));
      ((ObjectNode) answer.get("response")).remove("patchType");
      return Reply.json(answer);
    });
    install(api, of(ignoring(ca.caBundle())));

    create(api, pod("web-1", APP));

    assertCreatedUnchanged("web-1");
    assertThat(api.admissionCalls()).singleElement().extracting(AdmissionCall::detail)
        .isEqualTo("failed calling webhook \"limits.example.dev\": received invalid webhook response: "
            + "webhook returned response.patch but not response.patchType");
  }

  @Test
  void anErrorStatusFromTheWebhookIsACallFailure() {
    // dispatcher.go: r.Do(ctx).Into(response) fails on a non-2xx answer -> ErrCallingWebhook
    server.respond(review -> new Reply(503, "overloaded", Duration.ZERO));
    install(api, of(ignoring(ca.caBundle())));

    create(api, pod("web-1", APP));

    assertCreatedUnchanged("web-1");
    assertThat(api.admissionCalls()).extracting(AdmissionCall::outcome).containsExactly(Outcome.FAILED_OPEN);
  }

  @Test
  void aServiceWithoutEndpointsIsACallFailure() {
    api.unrouteService(SERVICE_NAMESPACE, SERVICE, 443);
    install(api, of(webhook(HOOK, ca.caBundle())));

    assertRefused(() -> create(api, pod("web-1", APP)), 500,
        message -> assertThat(message).contains("service \"svc\" not found"));
    assertThat(server.reviews()).isEmpty();
  }

  @Test
  void aPatchThatDoesNotApplyFailsTheCreateEvenUnderIgnore() {
    // dispatcher.go: patchObj.Apply error -> apierrors.NewInternalError, not an ErrCallingWebhook
    server.respond(review -> {
      var ops = add("/spec/containers/0/resources/limits/cpu", "1");
      ((ObjectNode) ops.get(0)).put("op", "replace").put("path", "/spec/noSuchField/cpu");
      return Reply.json(patch(review, ops));
    });
    install(api, of(ignoring(ca.caBundle())));

    assertRefused(() -> create(api, pod("web-1", APP)), 500,
        message -> assertThat(message).startsWith("Internal error occurred: "));
    assertThat(api.pod(NS, "web-1")).isEmpty();
    assertThat(api.admissionCalls()).extracting(AdmissionCall::outcome).containsExactly(Outcome.PATCH_FAILED);
  }

  @Test
  void aDenialRefusesTheCreateWithTheWebhooksStatusUnderEitherPolicy() {
    // errors/statuserror.go ToStatusErr: code defaults to 403, message prefixed with the webhook
    server.respond(review -> {
      ObjectNode answer = allow(review);
      ((ObjectNode) answer.get("response")).put("allowed", false).putObject("status").put("message", "no way");
      return Reply.json(answer);
    });
    install(api, of(ignoring(ca.caBundle())));

    assertRefused(() -> create(api, pod("web-1", APP)), 403, message -> assertThat(message).isEqualTo(
        "pods \"web-1\" is forbidden: admission webhook \"limits.example.dev\" denied the request: no way"));
    assertThat(api.pod(NS, "web-1")).isEmpty();

    server.respond(review -> {
      ObjectNode answer = allow(review);
      ((ObjectNode) answer.get("response")).put("allowed", false).putObject("status").put("code", 422)
          .put("reason", "Invalid");
      return Reply.json(answer);
    });
    assertRefused(() -> create(api, pod("web-2", APP)), 422, message -> assertThat(message).isEqualTo(
        "pods \"web-2\" is forbidden: admission webhook \"limits.example.dev\" denied the request: Invalid"));
    assertThat(api.admissionCalls()).extracting(AdmissionCall::outcome).containsExactly(Outcome.DENIED, Outcome.DENIED);
  }
}
