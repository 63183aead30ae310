package dev.kubeheadroom.kubereal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Prometheus (Debian's {@code prometheus}) scraping the real node's kubelet
 * {@code /metrics/cadvisor} every 2 s, as a cluster's Prometheus scrapes its kubelets; stopped by
 * {@link #close()}.
 */
record PrometheusProcess(Process process, URI url) implements AutoCloseable {
  private static final int PORT = 29090;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Starts it beside the node; skips the calling test with one line where it is not installed. */
  static PrometheusProcess start(RealNode node, Path work) throws IOException {
    Path binary = Path.of("/usr/bin/prometheus");
    Assumptions.assumeTrue(Files.isExecutable(binary),
        "prometheus is not installed (apt-get install -y prometheus); skipped");
    Path pki = node.kubeconfig().getParent().resolve("pki");
    Path config = work.resolve("prometheus.yml");
    Files.writeString(config, """
        global: {scrape_interval: 2s, scrape_timeout: 2s}
        scrape_configs:
          - job_name: kubelet-cadvisor
            scheme: https
            metrics_path: /metrics/cadvisor
            # The kubelet's serving certificate is self-signed; the client is the cluster's admin.
            tls_config: {insecure_skip_verify: true, cert_file: %s, key_file: %s}
            static_configs: [{targets: ['127.0.0.1:%d']}]
        """.formatted(pki.resolve("admin.crt"), pki.resolve("admin.key"), RealNode.KUBELET_PORT));
    Process p = new ProcessBuilder(binary.toString(), "--config.file=" + config,
        "--storage.tsdb.path=" + work.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + PORT)
        .redirectErrorStream(true).redirectOutput(work.resolve("prometheus.log").toFile()).start();
    return new PrometheusProcess(p, URI.create("http://127.0.0.1:" + PORT));
  }

  /** The newest value of an instant query's single series, if Prometheus has one. */
  OptionalLong query(String promql) {
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url.resolve(
          "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return OptionalLong.empty();
      }
      JsonNode result = JSON.readTree(r.body()).path("data").path("result");
      return result.size() == 1
          ? OptionalLong.of((long) Double.parseDouble(result.get(0).path("value").get(1).asText()))
          : OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty(); // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException(e));
    }
  }
}
