package dev.kubeheadroom.actuator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Stands in front of the API server double and answers the first {@code count} requests matching
 * a path as kube-apiserver's priority and fairness does: 429, a plain-text body and
 * {@code Retry-After} in seconds (staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go,
 * {@code tooManyRequests}); everything else goes through unchanged. (Until the double's own 429
 * fault carries {@code Retry-After}.)
 */
final class ThrottlingFront implements AutoCloseable {
  private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "connection", "expect", "upgrade");

  private final HttpServer server;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String upstream;
  private final Predicate<String> throttled;
  private final AtomicInteger left;
  private final long retryAfterSeconds;
  /** When each throttled request arrived. */
  final List<Instant> throttledAt = new CopyOnWriteArrayList<>();

  ThrottlingFront(String upstream, Predicate<String> throttledPath, int count, long retryAfterSeconds) {
    this.upstream = upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
    this.throttled = throttledPath;
    this.left = new AtomicInteger(count);
    this.retryAfterSeconds = retryAfterSeconds;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.start();
  }

  /** {@code base} (the double's config: credentials, namespace, retries) aimed at this front. */
  Config config(Config base) {
    return new ConfigBuilder(base).withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/").build();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getRawPath();
      if (throttled.test(path) && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throttledAt.add(Instant.now());
        byte[] body = "Too many requests, please try again later.\n".getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
        ex.getResponseHeaders().add("Retry-After", Long.toString(retryAfterSeconds));
        send(ex, 429, body);
        return;
      }
      byte[] in = ex.getRequestBody().readAllBytes();
      HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(upstream + ex.getRequestURI()))
          .timeout(Duration.ofSeconds(30))
          .method(ex.getRequestMethod(), in.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(in));
      ex.getRequestHeaders().forEach((name, values) -> {
        if (!NOT_FORWARDED.contains(name.toLowerCase())) {
          values.forEach(v -> forward.header(name, v));
        }
      });
      HttpResponse<byte[]> answer = http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
      answer.headers().firstValue("Content-Type").ifPresent(v -> ex.getResponseHeaders().add("Content-Type", v));
      send(ex, answer.statusCode(), answer.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(HttpExchange ex, int code, byte[] body) throws IOException {
    ex.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
