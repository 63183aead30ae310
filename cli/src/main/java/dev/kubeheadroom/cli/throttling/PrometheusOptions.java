package dev.kubeheadroom.cli.throttling;

import dev.kubeheadroom.cli.HttpTls;
import dev.kubeheadroom.cli.UserError;
import dev.kubeheadroom.cli.DurationFlag;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/** {@code explain}'s throttling what-if options: where Prometheus is, how to reach it, the window. */
public final class PrometheusOptions {
  static final Duration DEFAULT_WINDOW = Duration.ofHours(1);
  static final Duration DEFAULT_STEP = Duration.ofMinutes(1);
  /** Prometheus refuses a range query of more points per series (its HTTP API's limit). */
  static final long MAX_POINTS = 11_000;

  @Option(names = "--prometheus", paramLabel = "URL", defaultValue = "${env:HEADROOM_PROMETHEUS_URL}",
      description = "A Prometheus that scrapes cAdvisor (e.g. http://prometheus:9090): add the "
          + "throttling what-if, per container: throttled periods, usage quantiles, the limit that "
          + "would have covered it.")
  String url;

  @Option(names = "--window", paramLabel = "DURATION",
      description = "How far back the what-if looks (default 1h; e.g. 30m, 6h).")
  String window;

  @Option(names = "--step", paramLabel = "DURATION",
      description = "The usage rate's step (default 1m): the suggestion covers 99%% of the steps.")
  String step;

  @Option(names = "--prometheus-insecure", description = "Do not verify Prometheus' certificate (self-signed).")
  boolean insecure;

  @Option(names = "--prometheus-ca-file", paramLabel = "PEM",
      description = "Trust these CA certificates for Prometheus (e.g. the cluster's service CA).")
  Path caFile;

  @Option(names = "--prometheus-token-file", paramLabel = "FILE",
      description = "Send this file's token as a bearer token (e.g. a ServiceAccount token for an authenticating proxy).")
  Path tokenFile;

  /** Whether the what-if was asked for; {@code --window}, {@code --step} and the TLS flags need it. */
  public boolean given() {
    boolean given = url != null && !url.isBlank();
    if (!given && (window != null || step != null || insecure || caFile != null || tokenFile != null)) {
      throw new UserError("--window, --step and the --prometheus-* flags need --prometheus URL");
    }
    return given;
  }

  public String url() {
    return url;
  }

  public Duration window() {
    return duration("--window", window, DEFAULT_WINDOW);
  }

  /** The step, checked against the window: at least 1s, at most the window, at most 11,000 of them. */
  public Duration step() {
    Duration s = duration("--step", step, DEFAULT_STEP);
    Duration w = window();
    if (s.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new UserError("--step " + step + ": at least 1s");
    }
    if (s.compareTo(w) > 0) {
      throw new UserError("--step " + Windows.format(s) + " is longer than --window " + Windows.format(w));
    }
    if (w.toMillis() / s.toMillis() > MAX_POINTS) {
      throw new UserError("--window " + Windows.format(w) + " holds more than " + MAX_POINTS + " steps of "
          + Windows.format(s) + " (Prometheus' limit): take a longer --step");
    }
    return s;
  }

  public PrometheusClient client() {
    if (insecure && caFile != null) {
      throw new UserError("--prometheus-insecure and --prometheus-ca-file: give one");
    }
    SSLContext tls = insecure ? HttpTls.trustingEveryone()
        : caFile != null ? HttpTls.trusting("--prometheus-ca-file", caFile) : null;
    return new PrometheusClient(url, tls, token());
  }

  private String token() {
    if (tokenFile == null) {
      return null;
    }
    try {
      String token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      if (token.isEmpty() || token.chars().anyMatch(Character::isWhitespace)) {
        throw new UserError("--prometheus-token-file " + tokenFile + ": not one token");
      }
      return token;
    } catch (IOException e) {
      throw new UserError("--prometheus-token-file " + tokenFile + ": cannot read it (" + e.getMessage() + ")");
    }
  }

  private static Duration duration(String option, String text, Duration fallback) {
    if (text == null) {
      return fallback;
    }
    Duration d = DurationFlag.parse(option + " " + text, text);
    if (d.isNegative() || d.isZero()) {
      throw new UserError(option + " " + text + ": must be positive");
    }
    return d;
  }
}
