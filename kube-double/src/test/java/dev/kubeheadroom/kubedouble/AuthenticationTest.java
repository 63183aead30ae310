package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bearer-token authentication. Copies
 * staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go (the header
 * form) and the 401 that WithAuthentication's failed handler writes
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * UnauthorizedNegotiated; anonymous authentication off).
 */
class AuthenticationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private ApiServerDouble api;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private HttpResponse<String> get(String path, String authorization) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.url() + path.substring(1)));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRequestWithoutAuthorizationHeaderIsUnauthorizedWithTheRealStatusBody() throws Exception {
    HttpResponse<String> response = get("/api/v1/namespaces/team-a/pods", null);

    assertThat(response.statusCode()).isEqualTo(401);
    JsonNode status = JSON.readTree(response.body());
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("status").asText()).isEqualTo("Failure");
    assertThat(status.path("reason").asText()).isEqualTo("Unauthorized");
    assertThat(status.path("message").asText()).isEqualTo("Unauthorized");
    assertThat(status.path("code").asInt()).isEqualTo(401);
  }

  @Test
  void anUnknownTokenAnotherSchemeOrAnEmptyTokenIsUnauthorized() throws Exception {
    assertThat(get("/api/v1/pods", "Bearer not-a-token").statusCode()).isEqualTo(401);
    assertThat(get("/api/v1/pods", "Basic " + api.config().getOauthToken()).statusCode()).isEqualTo(401);
    assertThat(get("/api/v1/pods", "Bearer ").statusCode()).isEqualTo(401);
    // discovery too: the double, like a server with --anonymous-auth=false, lets nobody in unauthenticated
    assertThat(get("/version", null).statusCode()).isEqualTo(401);
    // the scheme is case-insensitive
    assertThat(get("/api/v1/pods", "bearer " + api.config().getOauthToken()).statusCode()).isEqualTo(200);
  }

  @Test
  void aFabric8ClientWithoutCredentialsSeesA401KubernetesClientException() {
    try (KubernetesClient anonymous = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl(api.url()).withRequestRetryBackoffLimit(0).build()).build()) {
      assertThatThrownBy(() -> anonymous.pods().inNamespace("team-a").list())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(401);
            assertThat(e.getStatus().getReason()).isEqualTo("Unauthorized");
          });
      assertThat(api.requests().refused()).singleElement().satisfies(e -> {
        assertThat(e.code()).isEqualTo(401);
        assertThat(e.caller().name()).isEmpty();
        assertThat(e.attributes().verb()).isEqualTo("list");
      });
    }
  }

  /** A watch is a WebSocket upgrade: authentication applies to it like to any GET. */
  @Test
  void aWatchWithoutCredentialsIsRefusedAndWithATokenIsServed() {
    try (KubernetesClient anonymous = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl(api.url()).withRequestRetryBackoffLimit(0).build()).build()) {
      assertThatThrownBy(() -> anonymous.pods().inNamespace("team-a").watch(new NoOpWatcher()))
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
    }
    try (var watch = api.client().pods().inNamespace("team-a").watch(new NoOpWatcher())) {
      assertThat(api.requests().entries()).last().satisfies(e -> {
        assertThat(e.attributes().verb()).isEqualTo("watch");
        assertThat(e.code()).isNotEqualTo(401);
        assertThat(e.authorized()).isTrue();
      });
    }
  }

  static final class NoOpWatcher implements Watcher<Pod> {
    @Override
    public void eventReceived(Action action, Pod resource) {
    }

    @Override
    public void onClose(WatcherException cause) {
    }
  }
}
