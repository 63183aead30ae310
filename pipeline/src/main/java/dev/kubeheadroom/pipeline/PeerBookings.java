package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ops.TrustingEveryone;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Asks other topology instances for a pod's booking, on their own {@code /bookings}, marked
 * forwarded ({@link #FORWARDED}) so they answer from their own stores or 404, never forwarding
 * again. The caller's {@code Authorization} header goes along: each instance authorizes the
 * caller itself. Instances are reached by their advertised pod IP, which no certificate names, so
 * their certificate is not verified (topology DESIGN.md, "Live bookings").
 */
final class PeerBookings {
  /** Marks a forwarded request; its value is the forwarding instance, for the logs. */
  static final String FORWARDED = "Headroom-Forwarded-By";
  /** On an answer read from a standby copy: how many changelog records it was behind. */
  static final String STANDBY_LAG = "Headroom-Standby-Lag";
  /** How long one instance may take to answer: well within the CLI's own wait. */
  static final Duration TIMEOUT = Duration.ofSeconds(1);

  /** What one instance answered; {@code status} 0 when it did not answer ({@code error} says why). */
  record Reply(String host, int status, byte[] body, Long standbyLag, String error) {
    boolean ok() {
      return status == 200;
    }

    /** One phrase for a reason line. */
    String describe() {
      return host + (status == 0 ? " did not answer (" + error + ")" : " answered " + status);
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
      .sslContext(TrustingEveryone.context()).build();

  /** Asks every one of {@code hosts} at once; the replies in {@code hosts}' order. */
  List<Reply> askAll(List<String> hosts, String scheme, String namespace, String name, String authorization,
      String self) {
    List<CompletableFuture<Reply>> asked = hosts.stream()
        .map(h -> ask(h, scheme, namespace, name, authorization, self)).toList();
    return asked.stream().map(CompletableFuture::join).toList();
  }

  CompletableFuture<Reply> ask(String host, String scheme, String namespace, String name, String authorization,
      String self) {
    URI uri = URI.create(scheme + "://" + host + BookingEndpoint.PATH + "?namespace="
        + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "&name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET()
        .header(FORWARDED, self.isEmpty() ? "unadvertised" : self);
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(r -> new Reply(host, r.statusCode(), r.body(),
            r.headers().firstValue(STANDBY_LAG).map(Long::valueOf).orElse(null), ""))
        .exceptionally(e -> {
          Throwable cause = e.getCause() == null ? e : e.getCause();
          return new Reply(host, 0, new byte[0], null, cause.getClass().getSimpleName()
              + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
        });
  }
}
