package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.topology.LiveBooking;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * {@code explain --live URL}: asks a running topology for the pod's booking ({@code GET
 * /bookings} on its metrics port) and explains it from that, without replaying anything.
 * Any instance answers for any pod (it asks the one that holds it). Any failure to get an answer
 * (unreachable, not running, a pod no instance holds: 404) is an empty result with the reason,
 * and the caller falls back to the checkpoint replay.
 */
final class LiveExplain {
  /** The topology instance asked may forward to another, which may wait one second for a third. */
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  /** An explanation and the booking it explains, or why there is none. */
  record Answer(Optional<Explanation> explanation, String whyNot, LiveBooking booking) {
    Answer(Optional<Explanation> explanation, String whyNot) {
      this(explanation, whyNot, null);
    }
  }

  private LiveExplain() {}

  /**
   * @param tls how the endpoint's certificate is checked; null: the JDK's default trust
   * @param token a bearer token allowed {@code get} on nonResourceURL {@code /bookings} (the chart's
   *     {@code <release>-bookings-reader}); null sends none (a port with {@code --metrics-auth=none})
   */
  static Answer ask(String url, String namespace, String name, SSLContext tls, String token) {
    URI uri;
    try {
      uri = URI.create(url.replaceAll("/+$", "") + "/bookings?namespace="
          + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "&name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new UserError("--live " + url + ": not a URL");
    }
    HttpResponse<byte[]> response;
    try {
      HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(TIMEOUT);
      if (tls != null) {
        client.sslContext(tls);
      }
      HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET();
      if (token != null && !token.isBlank()) {
        request.header("Authorization", "Bearer " + token.strip());
      }
      response = client.build().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      return new Answer(Optional.empty(), url + " did not answer (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(Optional.empty(), "interrupted");
    }
    String body = new String(response.body(), StandardCharsets.UTF_8).strip();
    if (response.statusCode() == 404) { // not booked yet, or an instance that holds it did not say so
      return new Answer(Optional.empty(), url + " answered 404: " + body);
    }
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      return new Answer(Optional.empty(), url + " answered " + response.statusCode() + ": "
          + (token == null || token.isBlank() ? "no token given" : "the token may not read bookings")
          + "; it needs get on nonResourceURL /bookings (ClusterRole <release>-bookings-reader),"
          + " passed with --live-token or HEADROOM_LIVE_TOKEN");
    }
    if (response.statusCode() != 200) {
      return new Answer(Optional.empty(), url + " answered " + response.statusCode() + ": " + body);
    }
    try {
      LiveBooking live = JsonCodec.decode(response.body(), LiveBooking.class);
      return new Answer(Optional.of(Explanation.of(live.booking(), live.uid(), live.config(),
          live.namespaces()::get, Instant.now(), Optional.empty(), Optional.empty())), "", live);
    } catch (SchemaException e) {
      return new Answer(Optional.empty(), url + " answered what this version cannot read: " + e.getMessage());
    }
  }
}
