package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --live} against a bookings endpoint behind the metrics port's authorization: it
 * sends {@code --live-token} as a bearer token, and turns a 401 or 403 into one line naming the
 * permission it lacks.
 */
class LiveExplainTokenTest {
  private final AtomicReference<String> seen = new AtomicReference<>();
  private HttpServer server;

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String start(int status) throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/bookings", exchange -> {
      seen.set(exchange.getRequestHeaders().getFirst("Authorization"));
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Test
  void aTokenWithoutTheGrantIsOneLineNamingTheMissingPermission() throws Exception {
    String url = start(403);

    LiveExplain.Answer answer = LiveExplain.ask(url, "team-a", "web-1", null, "scraper-token");

    assertThat(seen.get()).isEqualTo("Bearer scraper-token");
    assertThat(answer.explanation()).isEmpty();
    assertThat(answer.whyNot()).isEqualTo(url + " answered 403: the token may not read bookings; it needs get on "
        + "nonResourceURL /bookings (ClusterRole <release>-bookings-reader), passed with --live-token or "
        + "HEADROOM_LIVE_TOKEN").doesNotContain("\n");
  }

  @Test
  void noTokenSendsNoHeaderAndA401SaysSo() throws Exception {
    String url = start(401);

    LiveExplain.Answer answer = LiveExplain.ask(url, "team-a", "web-1", null, null);

    assertThat(seen.get()).isNull();
    assertThat(answer.whyNot()).startsWith(url + " answered 401: no token given; it needs get on nonResourceURL /bookings");
  }
}
