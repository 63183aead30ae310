package dev.kubeheadroom.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A fixture exporter serving the cAdvisor CPU series ({@code /metrics}, text format 0.0.4) for a
 * few containers whose counters advance at known, constant rates. Each sample carries its own
 * timestamp, so Prometheus computes rates from the exporter's clock: the rates it answers are the
 * fixture's exactly, however late a scrape runs on a loaded machine.
 */
final class CadvisorFixture implements AutoCloseable {
  /** CFS periods per second at the kernel's default 100 ms period. */
  static final double PERIODS_PER_SECOND = 10;

  /**
   * One cgroup's series.
   *
   * @param usageCores CPU seconds per second
   * @param throttledShare the share of its CFS periods that are throttled; negative: no CFS
   *     series (no CPU limit)
   */
  record Series(String namespace, String pod, String container, double usageCores, double throttledShare) {}

  private final HttpServer server;
  private final long startMillis = System.currentTimeMillis();

  CadvisorFixture(List<Series> series) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/metrics", exchange -> {
      byte[] body = exposition(series, System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  /** {@code host:port} for a scrape config. */
  String target() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private String exposition(List<Series> series, long now) {
    // Counters start high, as on a long-running node, so no extrapolation ever reaches zero.
    double seconds = 10_000 + (now - startMillis) / 1000.0;
    StringBuilder out = new StringBuilder();
    out.append("# TYPE container_cpu_usage_seconds_total counter\n");
    for (Series s : series) {
      line(out, "container_cpu_usage_seconds_total", s, s.usageCores() * seconds, now);
    }
    out.append("# TYPE container_cpu_cfs_periods_total counter\n");
    for (Series s : series) {
      if (s.throttledShare() >= 0) {
        line(out, "container_cpu_cfs_periods_total", s, PERIODS_PER_SECOND * seconds, now);
      }
    }
    out.append("# TYPE container_cpu_cfs_throttled_periods_total counter\n");
    for (Series s : series) {
      if (s.throttledShare() >= 0) {
        line(out, "container_cpu_cfs_throttled_periods_total", s,
            s.throttledShare() * PERIODS_PER_SECOND * seconds, now);
      }
    }
    return out.toString();
  }

  private static void line(StringBuilder out, String metric, Series s, double value, long timestampMillis) {
    out.append(String.format(Locale.ROOT, "%s{namespace=\"%s\",pod=\"%s\",container=\"%s\"} %s %d%n", metric,
        s.namespace(), s.pod(), s.container(), Double.toString(value), timestampMillis));
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
