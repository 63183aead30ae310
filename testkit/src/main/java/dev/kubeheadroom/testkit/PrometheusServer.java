package dev.kubeheadroom.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian package {@code prometheus}, as {@link Promtool}; {@code .ci/run}
 * installs it) for tests of code that queries one: its own storage directory, a free loopback
 * port, one scrape job. A test that needs it is skipped (JUnit assumption), not failed, on a
 * machine without the binary. {@link #close} kills it.
 */
public final class PrometheusServer implements AutoCloseable {
  private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/prometheus"),
      Path.of("/usr/local/bin/prometheus"));
  private static final Duration READY_WITHIN = Duration.ofSeconds(60);

  private final Process process;
  private final String url;
  private final Path log;

  private PrometheusServer(Process process, String url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
  }

  /** The installed binary ({@code $PROMETHEUS} first), or the calling test is skipped. */
  public static Path require() {
    Path found = InstalledTool.find("PROMETHEUS", CANDIDATES).orElse(null);
    assumeTrue(found != null, "prometheus not installed (apt-get install prometheus); skipped");
    return found;
  }

  /**
   * Starts Prometheus in {@code dir} scraping {@code target} ({@code host:port}, path
   * {@code /metrics}) every {@code scrapeInterval}, and waits until it is ready ({@code /-/ready}).
   * Skips the test when the binary is absent.
   */
  public static PrometheusServer start(Path dir, String target, Duration scrapeInterval)
      throws IOException, InterruptedException {
    return start(dir, scrapeInterval, """
          - job_name: fixture
            static_configs:
              - targets: ['%s']
        """.formatted(target));
  }

  /**
   * As above with {@code scrapeConfigs} (the YAML list under {@code scrape_configs:}, its items
   * indented by two spaces) as the jobs: e.g. a kubelet's {@code /metrics/cadvisor} over TLS.
   */
  public static PrometheusServer start(Path dir, Duration scrapeInterval, String scrapeConfigs)
      throws IOException, InterruptedException {
    Path binary = require();
    String interval = scrapeInterval.toMillis() + "ms";
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, """
        global:
          scrape_interval: %s
          scrape_timeout: %s
        scrape_configs:
        """.formatted(interval, interval) + scrapeConfigs);
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // another process may take the free port first
      int port = freePort();
      Path log = dir.resolve("prometheus-" + attempt + ".log");
      Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config,
          "--storage.tsdb.path=" + dir.resolve("data-" + attempt), "--web.listen-address=127.0.0.1:" + port,
          "--log.level=warn")
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port, log);
      try {
        server.awaitReady();
        return server;
      } catch (IOException e) {
        server.close();
        last = e;
      }
    }
    throw last;
  }

  /** The server's base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return url;
  }

  /** What the server logged (warnings and errors), for a failing test's message. */
  public String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("prometheus exited with " + process.exitValue() + ": " + log());
      }
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url + "/-/ready"))
            .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IOException("prometheus not ready within " + READY_WITHIN + ": " + log());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * The value of an instant query that yields one series, if it does (empty before the first
   * scrape, or when the query matches no series or several).
   */
  public java.util.OptionalDouble query(String promql) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url
        + "/api/v1/query?query=" + java.net.URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("prometheus answered " + r.statusCode() + " to " + promql + ": " + r.body());
    }
    // {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[t,"v"]}]}}
    java.util.regex.Matcher values = java.util.regex.Pattern.compile("\"value\":\\[[^,]+,\"([^\"]+)\"\\]")
        .matcher(r.body());
    if (!values.find()) {
      return java.util.OptionalDouble.empty();
    }
    double value = Double.parseDouble(values.group(1));
    return values.find() ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(value);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
