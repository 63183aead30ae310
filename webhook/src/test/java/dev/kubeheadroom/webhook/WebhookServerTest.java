package dev.kubeheadroom.webhook;

import static dev.kubeheadroom.webhook.Fixtures.TEAM_A;
import static dev.kubeheadroom.webhook.Fixtures.bytes;
import static dev.kubeheadroom.webhook.Fixtures.enforcing;
import static dev.kubeheadroom.webhook.Fixtures.patch;
import static dev.kubeheadroom.webhook.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.schemas.ClusterState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTPS endpoint end to end with a real TLS client that verifies the serving certificate. */
class WebhookServerTest {
  private static final int MAX_BODY = 64 * 1024;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private WebhookServer server;
  private WebhookClient client;

  @BeforeEach
  void startServer() {
    ClusterState state = new ClusterState();
    state.putNamespace(TEAM_A);
    state.putConfig(enforcing());
    state.markWarm();
    WebhookMetrics metrics = new WebhookMetrics(registry);
    server = WebhookServer.start(0, TestTls.server(), new AdmissionHandler(state, metrics), metrics,
        2, MAX_BODY, Duration.ofSeconds(2));
    client = new WebhookClient(server.port());
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void admissionReviewPostedOverHttpsGetsItsPatch() {
    HttpResponse<byte[]> response = client.post(WebhookServer.MUTATE_PATH, bytes("pod-requests-no-limits.json"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode review = tree(response.body());
    assertThat(review.at("/response/allowed").asBoolean()).isTrue();
    assertThat(patch(review).at("/0/value/cpu").asText()).isEqualTo("1");
    assertThat(registry.get("headroom.webhook.requests").tag("result", "mutated").counter().count()).isEqualTo(1);
    assertThat(registry.get("headroom.webhook.latency").timer().count()).isEqualTo(1);
  }

  @Test
  void malformedReviewIsAnsweredWith200AndAllowed() {
    HttpResponse<byte[]> response = client.post(WebhookServer.MUTATE_PATH, "not json".getBytes(StandardCharsets.UTF_8));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(tree(response.body()).at("/response/allowed").asBoolean()).isTrue();
    assertThat(registry.get("headroom.webhook.requests").tag("result", "error").counter().count()).isEqualTo(1);
  }

  @Test
  void bodyOverTheLimitGets413WithoutBeingHandled() {
    byte[] huge = new byte[MAX_BODY + 1];
    Arrays.fill(huge, (byte) ' ');

    HttpResponse<byte[]> response = client.post(WebhookServer.MUTATE_PATH, huge);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(registry.get("headroom.webhook.rejected.requests").tag("status", "413").counter().count()).isEqualTo(1);
    assertThat(registry.get("headroom.webhook.requests").tag("result", "error").counter().count()).isZero();
  }

  @Test
  void healthzAnswersOk() {
    HttpResponse<byte[]> response = client.get(WebhookServer.HEALTH_PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("ok");
  }

  @Test
  void otherPathsAndMethodsAreRefused() {
    assertThat(client.get(WebhookServer.MUTATE_PATH).statusCode()).isEqualTo(405);
    assertThat(client.post("/validate-v1-pod", bytes("pod-requests-no-limits.json")).statusCode()).isEqualTo(404);
    assertThat(client.post(WebhookServer.MUTATE_PATH + "/extra", bytes("pod-requests-no-limits.json")).statusCode())
        .isEqualTo(404);
  }
}
