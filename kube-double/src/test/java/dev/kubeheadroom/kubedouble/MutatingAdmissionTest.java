package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.AdmissionFixtures.MODE;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.SERVICE;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.SERVICE_NAMESPACE;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.configuration;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.create;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.install;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.namespace;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.pod;
import static dev.kubeheadroom.kubedouble.AdmissionFixtures.webhook;
import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestWebhookServer.add;
import static dev.kubeheadroom.kubedouble.TestWebhookServer.patch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.AdmissionCall.Outcome;
import dev.kubeheadroom.kubedouble.TestWebhookServer.Reply;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which webhooks a pod CREATE reaches, what they are sent, and what their patches do: the
 * double's copy of kube-apiserver's mutating admission (the sources each test cites are under
 * {@code staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/}).
 */
class MutatingAdmissionTest {
  private static final String LIMIT_PATH = "/spec/containers/0/resources/limits/cpu";
  private final TestCertificates.Ca ca = TestCertificates.newCa("webhook-ca");
  private ApiServerDouble api;
  private TestWebhookServer server;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    server = TestWebhookServer.start(ca.issue(AdmissionFixtures.SERVICE_HOST));
    api.routeService(SERVICE_NAMESPACE, SERVICE, 443, server.address());
    namespace(api, NS, Map.of(MODE, "managed"));
    server.respond(review -> Reply.json(patch(review, add(LIMIT_PATH, "1"))));
  }

  @AfterEach
  void stop() {
    server.close();
    api.close();
  }

  @Test
  void aMatchingWebhookPatchesThePodBeforeItIsStored() {
    // mutating/dispatcher.go callAttrMutatingHook: a JSONPatch response is applied to the object
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle()).build()));

    Pod created = create(api, pod("web-1", Map.of("app", "web")));

    assertThat(created.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1"));
    assertThat(api.pod(NS, "web-1").orElseThrow().getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1"));
    assertThat(api.admissionCalls()).singleElement().satisfies(call -> {
      assertThat(call.configuration()).isEqualTo("limits");
      assertThat(call.webhook()).isEqualTo("limits.example.dev");
      assertThat(call.name()).isEqualTo("web-1");
      assertThat(call.outcome()).isEqualTo(Outcome.MUTATED);
    });
  }

  @Test
  void theReviewCarriesTheCreateAsTheApiServerDescribesIt() {
    // webhook/request/admissionreview.go CreateV1AdmissionReview
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle()).build()));

    create(api, pod("web-1", Map.of("app", "web")));

    JsonNode review = server.reviews().get(0);
    assertThat(review.path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(review.path("kind").asText()).isEqualTo("AdmissionReview");
    JsonNode request = review.path("request");
    assertThat(request.path("uid").asText()).isNotEmpty();
    assertThat(request.path("kind").toString()).isEqualTo("{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}");
    assertThat(request.path("resource").toString())
        .isEqualTo("{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"}");
    assertThat(request.path("requestKind")).isEqualTo(request.path("kind"));
    assertThat(request.path("requestResource")).isEqualTo(request.path("resource"));
    assertThat(request.path("name").asText()).isEqualTo("web-1");
    assertThat(request.path("namespace").asText()).isEqualTo(NS);
    assertThat(request.path("operation").asText()).isEqualTo("CREATE");
    assertThat(request.path("dryRun").asBoolean(true)).isFalse();
    assertThat(request.path("options").path("kind").asText()).isEqualTo("CreateOptions");
    assertThat(request.at("/object/metadata/labels/app").asText()).isEqualTo("web");
    assertThat(request.at("/object/spec/containers/0/resources/requests/cpu").asText()).isEqualTo("500m");
    assertThat(request.path("oldObject").isNull()).isTrue();
  }

  @Test
  void aNamespaceSelectorThatDoesNotMatchTheNamespaceSkipsTheWebhook() {
    // predicates/namespace/matcher.go MatchNamespaceSelector: the stored Namespace's labels
    namespace(api, "team-b", Map.of(MODE, "excluded"));
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle())
        .withNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels(MODE, "managed").build()).build()));

    api.client().pods().inNamespace("team-b").resource(pod("other", Map.of())).create();
    create(api, pod("web-1", Map.of()));

    assertThat(api.pod("team-b", "other").orElseThrow().getSpec().getContainers().get(0).getResources()
        .getLimits()).doesNotContainKey("cpu");
    assertThat(api.pod(NS, "web-1").orElseThrow().getSpec().getContainers().get(0).getResources().getLimits())
        .containsKey("cpu");
    assertThat(api.admissionCalls()).extracting(AdmissionCall::namespace).containsExactly(NS);
  }

  @Test
  void aNamespaceSelectorOnANamespaceThatDoesNotExistIsNotFound() {
    // predicates/namespace/matcher.go: a namespace that cannot be found answers 404
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle())
        .withNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels(MODE, "managed").build()).build()));

    assertThatThrownBy(() -> api.client().pods().inNamespace("nowhere").resource(pod("x", Map.of())).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(404);
          assertThat(e.getStatus().getMessage()).isEqualTo("namespaces \"nowhere\" not found");
        });
    assertThat(server.reviews()).isEmpty();
  }

  @Test
  void anObjectSelectorExcludesPodsLabelledOut() {
    // predicates/object/matcher.go MatchObjectSelector: the pod's own labels (the chart's
    // "kube-headroom.dev/mode NotIn [unmanaged]")
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle())
        .withObjectSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey(MODE)
            .withOperator("NotIn").withValues("unmanaged").endMatchExpression().build()).build()));

    create(api, pod("opted-out", Map.of(MODE, "unmanaged")));
    create(api, pod("unlabelled", Map.of()));

    assertThat(api.admissionCalls()).extracting(AdmissionCall::name).containsExactly("unlabelled");
    assertThat(api.pod(NS, "opted-out").orElseThrow().getSpec().getContainers().get(0).getResources()
        .getLimits()).doesNotContainKey("cpu");
  }

  @Test
  void rulesForAnotherOperationOrResourceDoNotMatchAPodCreate() {
    // predicates/rules/rules.go Matcher.Matches: operation, group, version, resource and scope
    install(api, configuration("other", webhook("update.example.dev", ca.caBundle())
        .editFirstRule().withOperations("UPDATE").endRule().build(),
        webhook("deployments.example.dev", ca.caBundle()).editFirstRule().withApiGroups("apps")
            .withResources("deployments").endRule().build(),
        webhook("cluster.example.dev", ca.caBundle()).editFirstRule().withScope("Cluster").endRule().build(),
        webhook("resize.example.dev", ca.caBundle()).editFirstRule().withResources("pods/resize").endRule().build()));

    create(api, pod("web-1", Map.of()));

    assertThat(server.reviews()).isEmpty();
    install(api, configuration("wildcards", webhook("any.example.dev", ca.caBundle()).editFirstRule()
        .withOperations("*").withApiVersions("*").withResources("pods/*").withScope("*").endRule().build()));
    create(api, pod("web-2", Map.of()));
    assertThat(api.admissionCalls()).extracting(AdmissionCall::webhook).containsExactly("any.example.dev");
  }

  @Test
  void configurationsRunInNameOrderAndEachSeesThePatchesBeforeIt() {
    // configuration/mutating_webhook_manager.go sorts configurations by name; dispatcher.go calls
    // the webhooks in order, each on the object the previous ones patched
    server.respond(review -> {
      boolean limited = review.at("/request/object/spec/containers/0/resources/limits").has("cpu");
      return Reply.json(patch(review, limited ? add("/metadata/labels/second", "saw-limit")
          : add(LIMIT_PATH, "1")));
    });
    install(api, configuration("b-labels", webhook("labels.example.dev", ca.caBundle()).build()));
    install(api, configuration("a-limits", webhook("limits.example.dev", ca.caBundle()).build()));

    create(api, pod("web-1", Map.of("app", "web")));

    assertThat(api.admissionCalls()).extracting(AdmissionCall::configuration).containsExactly("a-limits", "b-labels");
    assertThat(api.pod(NS, "web-1").orElseThrow().getMetadata().getLabels()).containsEntry("second", "saw-limit");
  }

  @Test
  void requestsDefaultFromAWebhookSetLimitBeforeTheNextWebhook() {
    // dispatcher.go: the patched object is defaulted (SetDefaults_Pod: requests default to limits)
    server.respond(review -> Reply.json(patch(review, add("/spec/containers/0/resources/limits/ephemeral-storage",
        "1Gi"))));
    install(api, configuration("storage", webhook("storage.example.dev", ca.caBundle()).build()));

    Pod created = create(api, pod("web-1", Map.of()));

    assertThat(created.getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("ephemeral-storage", new Quantity("1Gi"));
  }

  @Test
  void seededPodsAndPodsWithoutConfigurationsReachNoWebhook() {
    create(api, pod("before", Map.of()));
    install(api, configuration("limits", webhook("limits.example.dev", ca.caBundle()).build()));

    api.seedClient().pods().inNamespace(NS).resource(pod("seeded", Map.of())).create();

    assertThat(server.reviews()).isEmpty();
    assertThat(api.admissionCalls()).isEmpty();
  }
}
