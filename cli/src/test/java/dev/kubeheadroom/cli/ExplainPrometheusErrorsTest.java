package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --prometheus} when Prometheus cannot answer: one line on stderr, never a stack
 * trace, and the documented exit code (4 to retry, 2 to fix the command). Prometheus is asked
 * before anything else, so none of these needs Kafka. A stub answers as Prometheus does on each
 * failure (its HTTP API's error form: {@code {"status":"error","errorType":…,"error":…}}).
 */
class ExplainPrometheusErrorsTest {
  @TempDir Path dir;
  HttpServer stub;
  final List<String> authorizations = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    if (stub != null) {
      stub.stop(0);
    }
  }

  private String answering(int status, String contentType, String body) throws Exception {
    return answering(status, contentType, body, body);
  }

  /** A stub answering {@code rangeBody} to {@code /api/v1/query_range} and {@code body} to the rest. */
  private String answering(int status, String contentType, String body, String rangeBody) throws Exception {
    stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    stub.createContext("/", exchange -> {
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      authorizations.add(auth == null ? "" : auth);
      boolean range = exchange.getRequestURI().getPath().endsWith("/query_range");
      byte[] bytes = (range ? rangeBody : body).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    stub.start();
    return "http://127.0.0.1:" + stub.getAddress().getPort();
  }

  private static CliRun explain(String... more) {
    String[] args = new String[more.length + 2];
    args[0] = "explain";
    args[1] = "team-a/web-1";
    System.arraycopy(more, 0, args, 2, more.length);
    return CliRun.run(args);
  }

  private static void assertOneLine(CliRun r, int exitCode, String contains) {
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(exitCode);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().strip()).startsWith("headroom explain: ").contains(contains).doesNotContain("\n")
        .doesNotContain("Exception:");
  }

  @Test
  void prometheusNotAnsweringIsUnavailable() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    assertOneLine(explain("--prometheus", "http://127.0.0.1:" + closed), ExitCodes.UNAVAILABLE,
        "Prometheus at http://127.0.0.1:" + closed + " did not answer");
  }

  @Test
  void aServerErrorIsUnavailable() throws Exception {
    String url = answering(503, "application/json",
        "{\"status\":\"error\",\"errorType\":\"unavailable\",\"error\":\"TSDB not ready\"}");
    assertOneLine(explain("--prometheus", url), ExitCodes.UNAVAILABLE, "answered 503: TSDB not ready; retry later");
  }

  @Test
  void aRefusedQueryIsAUsageErrorWithPrometheusReason() throws Exception {
    String url = answering(400, "application/json",
        "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\"\"}");
    assertOneLine(explain("--prometheus", url), ExitCodes.USAGE, "refused the query (400): invalid parameter");
  }

  @Test
  void unauthorizedPointsAtTheTokenAndTheTokenIsSentAsABearer() throws Exception {
    String url = answering(401, "text/plain", "Unauthorized\n");
    Path token = dir.resolve("token");
    Files.writeString(token, "s3cret\n");

    assertOneLine(explain("--prometheus", url, "--prometheus-token-file", token.toString()), ExitCodes.USAGE,
        "answered 401: not allowed; check --prometheus-token-file");
    assertThat(authorizations).first().isEqualTo("Bearer s3cret");
  }

  @Test
  void somethingElseThanThePrometheusApiIsAUsageError() throws Exception {
    String url = answering(200, "text/html", "<html>Grafana</html>");
    assertOneLine(explain("--prometheus", url), ExitCodes.USAGE,
        "not the Prometheus HTTP API; give --prometheus the server's base URL (without /api/v1)");
  }

  @Test
  void noSeriesForThePodIsAUsageErrorThatSaysWhatWasLookedFor() throws Exception {
    String url = answering(200, "application/json", "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
        + "\"result\":[]}}", "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
    assertOneLine(explain("--prometheus", url, "--window", "30m"), ExitCodes.USAGE, "Prometheus at " + url
        + " has no container_cpu_usage_seconds_total{namespace=\"team-a\",pod=\"web-1\",container!=\"\","
        + "container!=\"POD\"} over the last 30m: is cAdvisor");
  }

  @Test
  void anAnswerOfTheWrongShapeIsAUsageError() throws Exception {
    String url = answering(200, "application/json",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
    assertOneLine(explain("--prometheus", url), ExitCodes.USAGE, "answered a matrix where a vector was asked for");
  }

  @Test
  void flagsThatCannotWorkAreUsageErrors() throws Exception {
    assertOneLine(explain("--window", "2h"), ExitCodes.USAGE, "need --prometheus URL");
    assertOneLine(explain("--prometheus", "ftp://prometheus"), ExitCodes.USAGE, "not an http(s) URL");
    assertOneLine(explain("--prometheus", "http://p:9090", "--window", "soon"), ExitCodes.USAGE, "--window soon");
    assertOneLine(explain("--prometheus", "http://p:9090", "--step", "500ms"), ExitCodes.USAGE, "at least 1s");
    assertOneLine(explain("--prometheus", "http://p:9090", "--window", "5m", "--step", "10m"), ExitCodes.USAGE,
        "--step 10m is longer than --window 5m");
    assertOneLine(explain("--prometheus", "http://p:9090", "--window", "168h", "--step", "10s"), ExitCodes.USAGE,
        "Prometheus' limit");
    assertOneLine(explain("--prometheus", "http://p:9090", "--prometheus-token-file", dir.resolve("none").toString()),
        ExitCodes.USAGE, "cannot read it");
  }
}
