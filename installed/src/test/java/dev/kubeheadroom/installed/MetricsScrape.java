package dev.kubeheadroom.installed;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import dev.kubeheadroom.cli.HttpTls;
import java.time.Duration;

/**
 * One scrape of a stage's {@code /metrics} as a Prometheus without {@code Accept} would do it
 * (text format 0.0.4). At the chart's defaults the stage self-signs in memory, which a scraper can
 * only skip-verify (docs/observability.md), so this client trusts any certificate, as the CLI's
 * {@code explain --prometheus} does without a CA file: a test of the exposition, not of TLS
 * (OpsServerTest covers that).
 */
final class MetricsScrape {
  private MetricsScrape() {}

  /** @param token the scraper's bearer token (the metrics port reviews it with the API server) */
  static String of(StageProcess process, boolean secure, String token) throws Exception {
    String scheme = secure ? "https" : "http";
    URI uri = URI.create(scheme + "://127.0.0.1:" + process.port("metrics") + "/metrics");
    HttpClient client = HttpClient.newBuilder().sslContext(HttpTls.trustingEveryone())
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> response = client.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError(process.podName() + " /metrics answered " + response.statusCode());
    }
    return response.body();
  }
}
