package dev.kubeheadroom.installed;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * One scrape of a stage's {@code /metrics} as a Prometheus without {@code Accept} would do it
 * (text format 0.0.4). At the chart's defaults the stage self-signs in memory, which a scraper can
 * only skip-verify (docs/observability.md), so this client trusts any certificate: a test of the
 * exposition, not of TLS (OpsServerTest covers that).
 */
final class MetricsScrape {
  private MetricsScrape() {}

  static String of(StageProcess process, boolean secure) throws Exception {
    String scheme = secure ? "https" : "http";
    URI uri = URI.create(scheme + "://127.0.0.1:" + process.port("metrics") + "/metrics");
    SSLContext trustAll = SSLContext.getInstance("TLS");
    trustAll.init(null, new TrustManager[] {new AnyCertificate()}, new SecureRandom());
    HttpClient client = HttpClient.newBuilder().sslContext(trustAll)
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> response = client.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError(process.podName() + " /metrics answered " + response.statusCode());
    }
    return response.body();
  }

  private static final class AnyCertificate implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
