package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.OpsConfig;
import dev.kubeheadroom.ops.PodSeries;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where a stage serves its metrics and health endpoints (runbook: metrics TLS). */
public final class OpsOptions {
  @Option(names = "--health-port", paramLabel = "PORT", defaultValue = "${env:HEADROOM_HEALTH_PORT:-8081}",
      description = "Plain-HTTP /healthz and /readyz (default: ${DEFAULT-VALUE}; 0 picks a free port). Env: HEADROOM_HEALTH_PORT.")
  int healthPort;

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "${env:HEADROOM_METRICS_PORT:-8443}",
      description = "Prometheus /metrics (default: ${DEFAULT-VALUE}; 0 picks a free port). Env: HEADROOM_METRICS_PORT.")
  int metricsPort;

  @Option(names = "--metrics-secure", paramLabel = "true|false", arity = "1",
      defaultValue = "${env:HEADROOM_METRICS_SECURE:-true}",
      description = "Serve /metrics over HTTPS (default: ${DEFAULT-VALUE}). Env: HEADROOM_METRICS_SECURE.")
  boolean metricsSecure;

  @Option(names = "--metrics-cert-path", paramLabel = "DIR", defaultValue = "${env:HEADROOM_METRICS_CERT_PATH}",
      description = "Directory with tls.crt, tls.key (and ca.crt) for /metrics, e.g. a cert-manager Secret; "
          + "a self-signed certificate when absent. Env: HEADROOM_METRICS_CERT_PATH.")
  Path metricsCertPath;

  /** Who may read the metrics port ({@code --metrics-auth}). */
  enum MetricsAuth { kubernetes, none }

  @Option(names = "--metrics-auth", paramLabel = "kubernetes|none",
      defaultValue = "${env:HEADROOM_METRICS_AUTH:-kubernetes}",
      description = "Who may read /metrics and /bookings: kubernetes = a bearer token the API server authenticates "
          + "(TokenReview) and allows get on the path (SubjectAccessReview); none = anyone who reaches the port, "
          + "for clusters that front metrics otherwise (default: ${DEFAULT-VALUE}). Env: HEADROOM_METRICS_AUTH.")
  MetricsAuth metricsAuth;

  @Option(names = "--metrics-pod-series", paramLabel = "N",
      defaultValue = "${env:HEADROOM_METRICS_POD_SERIES:-0}",
      description = "Export per-pod series (headroom_pod_target_cores, headroom_pod_applied_limit_cores), "
          + "at most N per metric; 0 = none (default: ${DEFAULT-VALUE}). Env: HEADROOM_METRICS_POD_SERIES.")
  int podSeries;

  PodSeries podSeries() {
    try {
      return PodSeries.upTo(podSeries);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  OpsConfig config() {
    OpsConfig config = OpsConfig.defaults().withPorts(healthPort, metricsPort).withMetricsSecure(metricsSecure);
    return metricsCertPath == null ? config : config.withMetricsCertPath(metricsCertPath);
  }
}
