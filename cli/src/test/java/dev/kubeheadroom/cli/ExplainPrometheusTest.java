package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.kubeheadroom.cli.CadvisorFixture.Series;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.testkit.PrometheusServer;
import dev.kubeheadroom.topology.LiveBooking;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --prometheus} against a real Prometheus server (Debian's {@code prometheus}; the
 * class is skipped without it) scraping {@link CadvisorFixture} every second: pod team-a/web-1's
 * {@code app} is throttled in 40% of its periods at 0.95 cores, its {@code sidecar} uses 0.12
 * cores unthrottled. The limits Headroom gave come from a {@code --live} endpoint serving the
 * pod's booking ({@code app} at 800m since the node filled up, {@code sidecar} at 500m).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExplainPrometheusTest {
  /** The window and step the tests ask for: short, so the class costs seconds. */
  static final String WINDOW = "4s";
  static final String STEP = "2s";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  CadvisorFixture exporter;
  PrometheusServer prometheus;
  HttpServer live;

  @BeforeAll
  void startPrometheusScrapingTheFixture() throws Exception {
    PrometheusServer.require(); // skip before starting anything
    exporter = new CadvisorFixture(List.of(
        new Series("team-a", "web-1", "app", 0.95, 0.40),
        new Series("team-a", "web-1", "sidecar", 0.12, 0.0),
        // Left out by the queries: the pod's own cgroup, the pause container, another pod.
        new Series("team-a", "web-1", "", 5.0, 0.9),
        new Series("team-a", "web-1", "POD", 3.0, 0.9),
        new Series("team-a", "web-2", "app", 4.0, 0.9)));
    prometheus = PrometheusServer.start(dir, exporter.target(), Duration.ofSeconds(1));
    live = liveEndpoint();
    awaitSamples(Duration.ofSeconds(60));
  }

  @AfterAll
  void stop() {
    if (live != null) {
      live.stop(0);
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (exporter != null) {
      exporter.close();
    }
  }

  @Test
  void tableShowsEachContainersThrottlingAndTheLimitThatWouldHaveCoveredIt() {
    CliRun r = explain("team-a/web-1");
    System.out.println(r.stdout());

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("Pod team-a/web-1 on node n1")
        .contains("Throttling what-if, ").contains("(4s in 2s steps; Prometheus " + prometheus.url() + "):")
        .containsPattern("(?m)^  app +40\\.0% +950m +950m +950m +950m +≥950m +800m +4 +limit-too-low$")
        .containsPattern("(?m)^  sidecar +0\\.0% +120m +120m +120m +120m +120m +500m +1 +covered$")
        .contains("SUGGESTED is the p99 of the 2s usage rate, rounded up to the 10m quantum")
        .contains("Pod: suggested 1070m in total, limit 1300m, Headroom's target now 5.")
        // app's 950m at 4/5 of the pod's request: the pod needs 1188m, and 10 × 500m covers it.
        .contains("Request: the pod's request now (500m) gives a target of 5, enough for the 1188m that covers"
            + " every SUGGESTED.");
  }

  @Test
  void jsonCarriesTheWhatIfAsTheExplanationsThrottlingField() throws Exception {
    CliRun r = explain("team-a/web-1", "-o", "json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode view = JSON.readTree(r.stdout());
    assertThat(view.get("name").asText()).isEqualTo("web-1");
    JsonNode whatIf = view.get("throttling");
    assertThat(whatIf.get("window").asText()).isEqualTo(WINDOW);
    assertThat(whatIf.get("quantumMilli").asLong()).isEqualTo(10);
    JsonNode app = whatIf.get("containers").get(0);
    assertThat(app.get("container").asText()).isEqualTo("app");
    assertThat(app.get("throttledRatio").asDouble()).isCloseTo(0.40, within(0.005));
    assertThat(app.get("usage").get("steps").asInt()).isBetween(1, 2);
    assertThat(app.get("suggestedMilli").asLong()).isEqualTo(950);
    assertThat(app.get("lowerBound").asBoolean()).isTrue();
    assertThat(app.get("limitMilli").asLong()).isEqualTo(800);
    assertThat(app.get("targetMilli").asLong()).isEqualTo(4000);
    assertThat(app.get("verdict").asText()).isEqualTo("limit-too-low");
    JsonNode sidecar = whatIf.get("containers").get(1);
    assertThat(sidecar.get("throttledRatio").asDouble()).isZero();
    assertThat(sidecar.get("suggestedMilli").asLong()).isEqualTo(120);
    assertThat(sidecar.get("lowerBound").asBoolean()).isFalse();
    assertThat(sidecar.get("verdict").asText()).isEqualTo("covered");
    assertThat(whatIf.get("containers")).hasSize(2);
    assertThat(whatIf.get("request").get("limitNeededMilli").asLong()).isEqualTo(1188);
    assertThat(whatIf.get("request").get("requestNeededMilli").asLong()).isEqualTo(500);
  }

  @Test
  void aPodPrometheusNeverSawIsOneLineAndExitTwo() {
    CliRun r = explain("team-a/web-9");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().strip()).startsWith("headroom explain: Prometheus at " + prometheus.url() + " has no "
        + "container_cpu_usage_seconds_total{namespace=\"team-a\",pod=\"web-9\"").doesNotContain("\n");
  }

  private CliRun explain(String pod, String... more) {
    String[] args = new String[] {"explain", pod, "--prometheus", prometheus.url(), "--window", WINDOW,
        "--step", STEP, "--live", "http://127.0.0.1:" + live.getAddress().getPort()};
    String[] all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return CliRun.run(all);
  }

  /** Until Prometheus holds a window and a step of 1 s scrapes of the fixture (the oldest 5 s old). */
  private void awaitSamples(Duration within) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String query = URLEncoder.encode("count_over_time(container_cpu_usage_seconds_total{container=\"app\","
        + "pod=\"web-1\"}[6s])", StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + within.toNanos();
    int count = 0;
    while (System.nanoTime() < deadline) {
      String body = http.send(HttpRequest.newBuilder(URI.create(prometheus.url() + "/api/v1/query?query=" + query))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
      JsonNode result = JSON.readTree(body).path("data").path("result");
      count = result.isEmpty() ? 0 : result.get(0).path("value").get(1).asInt();
      if (count >= 6) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("Prometheus held " + count + " samples after " + within + "; its log:\n" + prometheus.log());
  }

  /** A topology's {@code GET /bookings}, answering web-1's booking on a 16-core node. */
  private static HttpServer liveEndpoint() throws Exception {
    Instant t = Instant.now();
    PodSnapshot pod = new PodSnapshot("uid-web-1", "team-a", "web-1", "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(
            new ContainerSnapshot("app", ContainerKind.APP, 400, 800, false, false),
            new ContainerSnapshot("sidecar", ContainerKind.APP, 100, 500, false, false)),
        ResizeStatus.NONE);
    NodeBooking booking = NodeBooking.empty("n1").apply(new NodeSnapshot("n1", 16000, "linux", false, Map.of()), t)
        .booking().apply(pod, t).booking();
    byte[] body = JsonCodec.encode(new LiveBooking(pod.uid(), booking, ClusterConfig.DEFAULTS,
        Map.of("team-a", new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/bookings", exchange -> {
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return server;
  }
}
