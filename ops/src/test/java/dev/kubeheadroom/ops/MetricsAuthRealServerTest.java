package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metrics port behind TokenReview and SubjectAccessReview on a real kube-apiserver, with the
 * chart's roles (deploy/charts/kube-headroom/templates/rbac.yaml): the stage may create the two
 * reviews, {@code <release>-metrics-reader} gets {@code /metrics}, {@code
 * <release>-bookings-reader} gets {@code /bookings}. Requests go over HTTP/1.1 with the JDK client.
 */
@WithRealKubernetes
class MetricsAuthRealServerTest {
  private static final String NS = "ops-auth-" + Long.toString(System.nanoTime() % 100_000, 36);
  private static final String RELEASE = NS; // cluster-scoped role names must not collide on reruns

  private static RealControlPlane api;
  private static KubernetesClient stageClient;
  private static OpsServer server;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start(RealControlPlane real) throws Exception {
    api = real;
    api.client().namespaces().resource(
        new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
    role(RELEASE + "-metrics-auth", new PolicyRuleBuilder()
            .withApiGroups("authentication.k8s.io").withResources("tokenreviews").withVerbs("create").build(),
        new PolicyRuleBuilder()
            .withApiGroups("authorization.k8s.io").withResources("subjectaccessreviews").withVerbs("create")
            .build());
    role(RELEASE + "-metrics-reader",
        new PolicyRuleBuilder().withNonResourceURLs("/metrics").withVerbs("get").build());
    role(RELEASE + "-bookings-reader",
        new PolicyRuleBuilder().withNonResourceURLs("/bookings").withVerbs("get").build());
    bind(RELEASE + "-metrics-auth", "stage");
    bind(RELEASE + "-metrics-reader", "prometheus");
    bind(RELEASE + "-bookings-reader", "explainer");

    stageClient = api.clientAs(NS, "stage");
    PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
    registry.counter("headroom_test_scrapes").increment();
    server = OpsServer.start(
        OpsConfig.defaults().withPorts(0, 0).withMetricsSecure(false),
        registry, new Readiness(), java.time.Clock.systemUTC(),
        Optional.of(new TokenAuthorizer(new KubernetesAccessReviews(stageClient))));
    server.route("/bookings", exchange -> {
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (stageClient != null) {
      stageClient.close();
    }
  }

  @Test
  void withoutATokenOrWithAForgedOneIs401() throws Exception {
    assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
    assertThat(get("/bookings", null).statusCode()).isEqualTo(401);
    HttpResponse<String> forged = get("/metrics", "not-a-token");
    assertThat(forged.statusCode()).isEqualTo(401);
    assertThat(forged.body()).isEqualTo("unauthorized: the token is not valid\n");
  }

  @Test
  void aValidTokenWithoutTheGrantIs403() throws Exception {
    HttpResponse<String> response = get("/metrics", api.serviceAccountToken(NS, "nobody"));
    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.body()).isEqualTo(
        "forbidden: system:serviceaccount:" + NS + ":nobody may not get nonResourceURL /metrics\n");
  }

  @Test
  void aScraperReadsMetricsButNotBookings() throws Exception {
    String token = api.serviceAccountToken(NS, "prometheus");
    HttpResponse<String> metrics = get("/metrics", token);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("headroom_test_scrapes_total 1.0");
    assertThat(get("/bookings", token).statusCode()).isEqualTo(403);
    assertThat(get("/bookings/default/web-1", token).statusCode()).isEqualTo(403);
  }

  @Test
  void theBookingsRoleReadsBookings() throws Exception {
    String token = api.serviceAccountToken(NS, "explainer");
    assertThat(get("/bookings", token).statusCode()).isEqualTo(200);
    assertThat(get("/bookings/default/web-1", token).statusCode()).isEqualTo(200);
    assertThat(get("/metrics", token).statusCode()).isEqualTo(403);
  }

  @Test
  void healthStaysOpen() throws Exception {
    HttpResponse<String> health = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.healthPort() + "/healthz")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
  }

  @Test
  void aStageThatMayNotAskIs503NotAnOpenDoor() throws Exception {
    try (KubernetesClient unprivileged = api.clientAs(NS, "no-reviews");
        OpsServer closed = OpsServer.start(
            OpsConfig.defaults().withPorts(0, 0).withMetricsSecure(false),
            HeadroomMetrics.newPrometheusRegistry(), new Readiness(), java.time.Clock.systemUTC(),
            Optional.of(new TokenAuthorizer(new KubernetesAccessReviews(unprivileged))))) {
      HttpResponse<String> response = http.send(
          request(closed.metricsPort(), "/metrics", api.serviceAccountToken(NS, "prometheus")),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.body()).contains("403 (the stage needs create on tokenreviews)");
    }
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    return http.send(request(server.metricsPort(), path, token), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(int port, String path, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(20));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder.build();
  }

  private static void role(String name, PolicyRule... rules) {
    api.client().rbac().clusterRoles().resource(new ClusterRoleBuilder()
        .withNewMetadata().withName(name).endMetadata().withRules(rules).build()).create();
  }

  private static void bind(String role, String serviceAccount) {
    api.serviceAccountToken(NS, serviceAccount); // creates the account
    api.client().rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(role + "-" + serviceAccount).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(role)
        .endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(serviceAccount).withNamespace(NS).endSubject()
        .build()).create();
  }
}
