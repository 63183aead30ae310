package dev.kubeheadroom.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A TLS client that talks to the webhook the way the API server does (POST JSON, verify cert). */
final class WebhookClient {
  private final HttpClient http = HttpClient.newBuilder().sslContext(TestTls.client())
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  WebhookClient(int port) {
    this.port = port;
  }

  HttpResponse<byte[]> post(String path, byte[] body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
  }

  HttpResponse<byte[]> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  private URI uri(String path) {
    return URI.create("https://localhost:" + port + path + "?timeout=3s");
  }

  private HttpResponse<byte[]> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
