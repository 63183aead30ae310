package dev.kubeheadroom.cli.throttling;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.cli.Unavailable;
import dev.kubeheadroom.cli.UserError;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;

/**
 * The Prometheus HTTP API's two queries ({@code /api/v1/query}, {@code /api/v1/query_range}), as
 * the Prometheus docs "HTTP API" define them. Failures are one line: not answering or a 5xx is
 * {@link Unavailable} (retry), a 4xx or an answer that is not the API is a {@link UserError} (a
 * wrong URL, token or query).
 */
public final class PrometheusClient {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One series of an instant query. */
  public record Sample(Map<String, String> labels, double value) {}

  /** One series of a range query: its finite values in time order. */
  public record Range(Map<String, String> labels, List<Double> values) {}

  private final String base;
  private final HttpClient http;
  private final String bearerToken;

  /**
   * @param url the server's base URL (as in a Grafana data source: {@code http://prometheus:9090},
   *     or a path prefix such as {@code https://thanos-querier:9091})
   * @param tls null for the JVM's default trust
   * @param bearerToken sent as {@code Authorization: Bearer}, or null
   */
  public PrometheusClient(String url, SSLContext tls, String bearerToken) {
    this.base = url.replaceAll("/+$", "");
    try {
      URI uri = URI.create(base);
      if (uri.getScheme() == null || uri.getHost() == null
          || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
        throw new IllegalArgumentException("not an http(s) URL");
      }
    } catch (IllegalArgumentException e) {
      throw new UserError("--prometheus " + url + ": not an http(s) URL");
    }
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NORMAL);
    if (tls != null) {
      builder.sslContext(tls);
    }
    this.http = builder.build();
    this.bearerToken = bearerToken;
  }

  /** {@code query} evaluated at {@code at}: one sample per series. */
  public List<Sample> instant(String query, Instant at) {
    JsonNode result = get("/api/v1/query", "query=" + encode(query) + "&time=" + seconds(at), "vector");
    List<Sample> samples = new ArrayList<>();
    for (JsonNode series : result) {
      Double v = value(series.path("value"));
      if (v != null) {
        samples.add(new Sample(labels(series.path("metric")), v));
      }
    }
    return samples;
  }

  /** {@code query} evaluated at {@code start}, {@code start + step}, … up to {@code end}. */
  public List<Range> range(String query, Instant start, Instant end, Duration step) {
    JsonNode result = get("/api/v1/query_range", "query=" + encode(query) + "&start=" + seconds(start)
        + "&end=" + seconds(end) + "&step=" + step.toMillis() / 1000.0, "matrix");
    List<Range> ranges = new ArrayList<>();
    for (JsonNode series : result) {
      List<Double> values = new ArrayList<>();
      for (JsonNode point : series.path("values")) {
        Double v = value(point);
        if (v != null) {
          values.add(v);
        }
      }
      ranges.add(new Range(labels(series.path("metric")), values));
    }
    return ranges;
  }

  private JsonNode get(String path, String params, String resultType) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path + "?" + params))
        .timeout(QUERY_TIMEOUT).header("Accept", "application/json").GET();
    if (bearerToken != null) {
      request.header("Authorization", "Bearer " + bearerToken);
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new Unavailable("Prometheus at " + base + " did not answer (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); check --prometheus and the network");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("interrupted while asking Prometheus at " + base);
    }
    int status = response.statusCode();
    JsonNode body = parse(response.body());
    String error = body == null ? null : body.path("error").asText(null);
    if (status >= 500) {
      throw new Unavailable("Prometheus at " + base + " answered " + status + (error == null ? "" : ": " + error)
          + "; retry later");
    }
    if (status == 401 || status == 403) {
      throw new UserError("Prometheus at " + base + " answered " + status
          + ": not allowed; check --prometheus-token-file");
    }
    if (status >= 400 && error != null) {
      throw new UserError("Prometheus at " + base + " refused the query (" + status + "): " + error);
    }
    if (status != 200 || body == null || !"success".equals(body.path("status").asText())) {
      throw new UserError("Prometheus at " + base + " answered " + status + " to " + path
          + ", not the Prometheus HTTP API; give --prometheus the server's base URL (without /api/v1)");
    }
    JsonNode data = body.path("data");
    if (!resultType.equals(data.path("resultType").asText())) {
      throw new UserError("Prometheus at " + base + " answered a " + data.path("resultType").asText()
          + " where a " + resultType + " was asked for");
    }
    return data.path("result");
  }

  private static JsonNode parse(String text) {
    try {
      JsonNode node = JSON.readTree(text);
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static Map<String, String> labels(JsonNode metric) {
    Map<String, String> labels = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = metric.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      labels.put(e.getKey(), e.getValue().asText());
    }
    return labels;
  }

  /** A {@code [time, "value"]} pair's value; null for NaN and ±Inf (the API writes them as strings). */
  private static Double value(JsonNode pair) {
    if (!pair.isArray() || pair.size() != 2) {
      return null;
    }
    try {
      double v = Double.parseDouble(pair.get(1).asText());
      return Double.isFinite(v) ? v : null;
    } catch (NumberFormatException e) {
      return null; // "+Inf", "-Inf"
    }
  }

  private static String seconds(Instant t) {
    return t.getEpochSecond() + "." + String.format(java.util.Locale.ROOT, "%03d", t.getNano() / 1_000_000);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
