package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetailsBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The actuator's client against an API server that throttles like kube-apiserver's priority and
 * fairness: 429, a plain-text body and {@code Retry-After} (staging/src/k8s.io/apiserver/pkg/server/
 * filters/maxinflight.go, {@code tooManyRequests}). One call is one request, and the wait the
 * server asked for reaches the retry decision.
 */
class ActuatorClientTest {
  private final AtomicInteger requests = new AtomicInteger();
  private volatile int code = 429;
  private HttpServer server;
  private ActuatorClient client;

  private void startThrottlingServer(String retryAfter) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> answer(ex, retryAfter));
    server.start();
    client = ActuatorClient.connect(new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .withNamespace("default").build());
  }

  private void answer(HttpExchange ex, String retryAfter) throws IOException {
    requests.incrementAndGet();
    byte[] body;
    if (code == 429) {
      body = "Too many requests, please try again later.\n".getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
      ex.getResponseHeaders().add("Retry-After", retryAfter);
    } else {
      body = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web\",\"namespace\":\"ns\",\"uid\":\"u1\"}}"
          .getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
    }
    ex.sendResponseHeaders(code, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void aThrottledCallIsOneRequestAndKeepsTheServersRetryAfter() throws IOException {
    startThrottlingServer("2");

    long started = System.nanoTime();
    assertThatThrownBy(() -> client.kubernetes().pods().inNamespace("ns").withName("web").get())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(429));

    // fabric8 alone would have slept Retry-After and tried again, 10 times
    assertThat(requests.get()).isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
    assertThat(client.lastRetryAfter()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aResizeTryThatIsThrottledIsTransientWithTheServersWait() throws IOException {
    startThrottlingServer("3");
    PodChange change = change("u1", "ns", "web", 1000, 2000);
    PodWork work = PodWork.of(1, decision("n1", false, change), change, new TopicPartition("d", 0), 0);

    ResizePatcher.Attempt attempt = new ResizePatcher(client).resize(work, dev.kubeheadroom.policy.LimitRangeCaps.NONE);

    assertThat(attempt.patchSent()).isFalse();
    assertThat(attempt.verdict()).isInstanceOfSatisfying(Verdict.Transient.class,
        t -> assertThat(t.retryAfter()).isEqualTo(Duration.ofSeconds(3)));
    assertThat(RetryPolicy.DEFAULT.delayAfter(1, ((Verdict.Transient) attempt.verdict()).retryAfter()))
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(requests.get()).isEqualTo(1);
  }

  @Test
  void aSuccessfulAnswerClearsTheWait() throws IOException {
    startThrottlingServer("2");
    assertThatThrownBy(() -> client.kubernetes().pods().inNamespace("ns").withName("web").get());
    code = 200;

    assertThat(client.kubernetes().pods().inNamespace("ns").withName("web").get().getMetadata().getUid())
        .isEqualTo("u1");
    assertThat(client.lastRetryAfter()).isZero();
  }

  @Test
  void retryAfterIsReadInSecondsOrAsAnHttpDate() {
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
    assertThat(ActuatorClient.parseRetryAfter("5", clock)).isEqualTo(Duration.ofSeconds(5));
    assertThat(ActuatorClient.parseRetryAfter("Tue, 01 Dec 2026 12:00:07 GMT", clock)).isEqualTo(Duration.ofSeconds(7));
    assertThat(ActuatorClient.parseRetryAfter("Tue, 01 Dec 2026 11:00:00 GMT", clock)).isZero();
    assertThat(ActuatorClient.parseRetryAfter("0", clock)).isZero();
    assertThat(ActuatorClient.parseRetryAfter("-4", clock)).isZero();
    assertThat(ActuatorClient.parseRetryAfter("soon", clock)).isZero();
    assertThat(ActuatorClient.parseRetryAfter(null, clock)).isZero();
  }

  @Test
  void aStatusRetryAfterSecondsWinsOverTheHeader() {
    // kube-apiserver's NewTooManyRequests / NewServerTimeout put the wait in details.retryAfterSeconds
    KubernetesClientException e = new KubernetesClientException(new StatusBuilder().withCode(429)
        .withMessage("too many requests").withDetails(new StatusDetailsBuilder().withRetryAfterSeconds(4).build())
        .build());

    assertThat(OutcomeClassifier.classify(e, Duration.ofSeconds(1))).isInstanceOfSatisfying(Verdict.Transient.class,
        t -> assertThat(t.retryAfter()).isEqualTo(Duration.ofSeconds(4)));
  }
}
