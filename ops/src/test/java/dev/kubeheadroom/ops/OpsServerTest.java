package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.ops.Fixtures.KeyEncoding;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpsServerTest {
  private static final OpsConfig EPHEMERAL = OpsConfig.defaults().withPorts(0, 0);

  @TempDir Path dir;
  private final PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
  private final Readiness readiness = new Readiness();
  private OpsServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void readinessFlipsFrom503NamingTheStageTo200() throws Exception {
    // given a stage that is not ready yet and one that is
    AtomicBoolean streamsRunning = new AtomicBoolean(false);
    readiness.add("streams", streamsRunning::get).add("informers", () -> true);
    server = OpsServer.start(EPHEMERAL, registry, readiness);

    // then /readyz is 503 naming only the stage that is not ready, /healthz is 200
    assertThat(get(plain(), health("/readyz")))
        .satisfies(r -> assertThat(r.statusCode()).isEqualTo(503))
        .satisfies(r -> assertThat(r.body()).isEqualTo("not ready: streams\n"));
    assertThat(get(plain(), health("/healthz")).statusCode()).isEqualTo(200);

    // when the stage becomes ready
    streamsRunning.set(true);

    // then /readyz is 200
    HttpResponse<String> ready = get(plain(), health("/readyz"));
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("ok\n");
  }

  @Test
  void aCheckThatThrowsIsNotReadyWithItsMessage() throws Exception {
    readiness.add("leader", () -> {
      throw new IllegalStateException("lease unknown");
    });
    server = OpsServer.start(EPHEMERAL, registry, readiness);

    HttpResponse<String> response = get(plain(), health("/readyz"));

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body())
        .isEqualTo("not ready: leader (IllegalStateException: lease unknown)\n");
  }

  @Test
  void plainHttpMetricsServeThePrometheusTextFormat() throws Exception {
    // given metrics-secure=false
    new HeadroomMetrics(registry);
    server = OpsServer.start(EPHEMERAL.withMetricsSecure(false), registry, readiness);

    // when scraped
    HttpResponse<String> response =
        get(plain(), URI.create("http://localhost:" + server.metricsPort() + "/metrics"));

    // then it is the Prometheus text format with Headroom's series
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains(OpsServer.METRICS_CONTENT_TYPE);
    assertThat(response.body()).contains("headroom_resizes_total{result=\"applied\"} 0");
    assertThat(server.metricsCertificate()).isEmpty();
  }

  @Test
  void aScraperAskingForOpenMetricsGetsItGzippedWhenItAcceptsGzip() throws Exception {
    // given plain HTTP metrics
    new HeadroomMetrics(registry);
    server = OpsServer.start(EPHEMERAL.withMetricsSecure(false), registry, readiness);
    URI uri = URI.create("http://localhost:" + server.metricsPort() + "/metrics");

    // when Prometheus scrapes (its default Accept, gzip)
    HttpResponse<byte[]> response = plain().send(HttpRequest.newBuilder(uri)
            .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
            .header("Accept-Encoding", "gzip").build(),
        HttpResponse.BodyHandlers.ofByteArray());

    // then the body is gzipped OpenMetrics, ending with # EOF as the format requires
    assertThat(response.headers().firstValue("Content-Encoding")).contains("gzip");
    assertThat(response.headers().firstValue("Content-Type"))
        .contains(ScrapeFormat.OPENMETRICS_100.contentType());
    String body;
    try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(response.body()))) {
      body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertThat(body).contains("headroom_resizes_total{result=\"applied\"} 0").endsWith("# EOF\n");

    // and a client that accepts neither gets plain text 0.0.4, uncompressed
    HttpResponse<String> text = get(plain(), uri);
    assertThat(text.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(text.body()).doesNotContain("# EOF");
  }

  @Test
  void otherPathsAreNotFound() throws Exception {
    server = OpsServer.start(EPHEMERAL.withMetricsSecure(false), registry, readiness);

    assertThat(get(plain(), health("/metrics")).statusCode()).isEqualTo(404);
    assertThat(get(plain(), URI.create("http://localhost:" + server.metricsPort() + "/metricsx"))
        .statusCode()).isEqualTo(404);
  }

  @Test
  void selfSignedHttpsIsVerifiedByAClientTrustingExactlyThatCertificate() throws Exception {
    // given the default: HTTPS with a self-signed certificate
    new HeadroomMetrics(registry);
    server = OpsServer.start(EPHEMERAL, registry, readiness);
    X509Certificate served = server.metricsCertificate().orElseThrow();

    // when a client that trusts exactly that certificate scrapes by name (hostname verified)
    HttpResponse<String> response = get(client(Fixtures.trusting(served)), metrics());

    // then it gets the scrape
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("headroom_pods_managed");
    assertThat(response.sslSession().orElseThrow().getPeerCertificates()[0]).isEqualTo(served);
  }

  @Test
  void selfSignedHttpsIsRefusedByAClientWithDefaultTrust() throws Exception {
    server = OpsServer.start(EPHEMERAL, registry, readiness);

    assertThatThrownBy(() -> get(client(SSLContext.getDefault()), metrics()))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void servesTheCertificateFromAPemDirectoryWithAPkcs1Key() throws Exception {
    // given a cert-manager style directory with an RSA key in PKCS#1
    TlsMaterial issued = TlsMaterial.selfSigned(Fixtures.rsa(), List.of(), Clock.systemUTC());
    Fixtures.writePemDir(dir, issued, KeyEncoding.PKCS1);

    // when served from it
    server = OpsServer.start(EPHEMERAL.withMetricsCertPath(dir), registry, readiness);

    // then a client trusting ca.crt verifies the scrape
    HttpResponse<String> response = get(client(Fixtures.trusting(issued.certificate())), metrics());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.sslSession().orElseThrow().getPeerCertificates()[0])
        .isEqualTo(issued.certificate());
  }

  @Test
  void servesTheCertificateFromAPemDirectoryWithAPkcs8Key() throws Exception {
    TlsMaterial issued = TlsMaterial.selfSigned(List.of(), Clock.systemUTC());
    Fixtures.writePemDir(dir, issued, KeyEncoding.PKCS8);

    server = OpsServer.start(EPHEMERAL.withMetricsCertPath(dir), registry, readiness);

    assertThat(get(client(Fixtures.trusting(issued.certificate())), metrics()).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aRotatedCertificateIsServedAfterTheCheckInterval() throws Exception {
    // given a server on one certificate and a clock we move
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    TlsMaterial first = TlsMaterial.selfSigned(List.of(), Clock.systemUTC());
    Fixtures.writePemDir(dir, first, KeyEncoding.PKCS8);
    server = OpsServer.start(EPHEMERAL.withMetricsCertPath(dir), registry, readiness, clock);

    // when cert-manager rotates it, and the check interval passes
    TlsMaterial second = TlsMaterial.selfSigned(List.of(), Clock.systemUTC());
    Fixtures.writePemDir(dir, second, KeyEncoding.PKCS8);
    clock.advance(OpsConfig.DEFAULT_CERT_CHECK_INTERVAL);

    // then new connections get the new certificate
    HttpResponse<String> response = get(client(Fixtures.trusting(second.certificate())), metrics());
    assertThat(response.sslSession().orElseThrow().getPeerCertificates()[0])
        .isEqualTo(second.certificate());
    assertThat(server.metricsCertificate()).contains(second.certificate());
  }

  @Test
  void aHalfWrittenRotationKeepsServingThePreviousCertificate() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    TlsMaterial first = TlsMaterial.selfSigned(List.of(), Clock.systemUTC());
    Fixtures.writePemDir(dir, first, KeyEncoding.PKCS8);
    server = OpsServer.start(EPHEMERAL.withMetricsCertPath(dir), registry, readiness, clock);

    // when only tls.crt has been replaced so far
    Fixtures.writePemDir(dir.resolve("next"), TlsMaterial.selfSigned(List.of(), Clock.systemUTC()),
        KeyEncoding.PKCS8);
    java.nio.file.Files.copy(dir.resolve("next/tls.crt"), dir.resolve("tls.crt"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    clock.advance(OpsConfig.DEFAULT_CERT_CHECK_INTERVAL);

    // then the previous certificate is still served
    HttpResponse<String> response = get(client(Fixtures.trusting(first.certificate())), metrics());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(server.metricsCertificate()).contains(first.certificate());
  }

  @Test
  void anUnusableCertificateDirectoryFailsStartNamingTheFile() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), Clock.systemUTC()),
        KeyEncoding.PKCS8);
    java.nio.file.Files.writeString(dir.resolve("tls.key"), "garbage\n");

    assertThatThrownBy(() -> OpsServer.start(EPHEMERAL.withMetricsCertPath(dir), registry, readiness))
        .isInstanceOf(TlsMaterialException.class)
        .hasMessageStartingWith(dir.resolve("tls.key").toString());
  }

  private URI health(String path) {
    return URI.create("http://localhost:" + server.healthPort() + path);
  }

  private URI metrics() {
    return URI.create("https://localhost:" + server.metricsPort() + "/metrics");
  }

  private static HttpClient plain() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** A fresh client (and so a fresh TLS handshake) per call. */
  private static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(context)
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static HttpResponse<String> get(HttpClient client, URI uri) throws Exception {
    return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
