package dev.kubeheadroom.ops;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The operational flags every stage takes (deploy/README.md).
 *
 * @param healthPort {@code --health-port}: plain HTTP {@code /healthz} and {@code /readyz}; 0 =
 *     ephemeral
 * @param metricsPort {@code --metrics-port}: {@code /metrics}; 0 = ephemeral
 * @param metricsSecure {@code --metrics-secure}: HTTPS (default) or plain HTTP
 * @param metricsCertPath {@code --metrics-cert-path}: directory with {@code tls.crt}, {@code
 *     tls.key}, optional {@code ca.crt}; empty = self-signed in memory
 * @param selfSignedNames extra SANs of the self-signed certificate (localhost and 127.0.0.1 are
 *     always there)
 * @param certCheckInterval how often, at most, the certificate directory is checked for a
 *     rotation (on a handshake)
 */
public record OpsConfig(
    int healthPort,
    int metricsPort,
    boolean metricsSecure,
    Optional<Path> metricsCertPath,
    List<String> selfSignedNames,
    Duration certCheckInterval) {

  public static final int DEFAULT_HEALTH_PORT = 8081;
  public static final int DEFAULT_METRICS_PORT = 8443;
  public static final Duration DEFAULT_CERT_CHECK_INTERVAL = Duration.ofSeconds(10);

  public OpsConfig {
    checkPort(healthPort, "--health-port");
    checkPort(metricsPort, "--metrics-port");
    if (healthPort != 0 && healthPort == metricsPort) {
      throw new IllegalArgumentException(
          "--health-port and --metrics-port must differ, both are " + healthPort);
    }
    metricsCertPath = metricsCertPath == null ? Optional.empty() : metricsCertPath;
    selfSignedNames = selfSignedNames == null ? List.of() : List.copyOf(selfSignedNames);
    if (certCheckInterval == null || certCheckInterval.isNegative()) {
      throw new IllegalArgumentException("certCheckInterval must be >= 0");
    }
  }

  /** The chart's defaults: health 8081, metrics 8443 over HTTPS, self-signed. */
  public static OpsConfig defaults() {
    return new OpsConfig(
        DEFAULT_HEALTH_PORT, DEFAULT_METRICS_PORT, true, Optional.empty(), List.of(),
        DEFAULT_CERT_CHECK_INTERVAL);
  }

  public OpsConfig withPorts(int health, int metrics) {
    return new OpsConfig(
        health, metrics, metricsSecure, metricsCertPath, selfSignedNames, certCheckInterval);
  }

  public OpsConfig withMetricsSecure(boolean secure) {
    return new OpsConfig(
        healthPort, metricsPort, secure, metricsCertPath, selfSignedNames, certCheckInterval);
  }

  public OpsConfig withMetricsCertPath(Path dir) {
    return new OpsConfig(
        healthPort, metricsPort, metricsSecure, Optional.of(dir), selfSignedNames,
        certCheckInterval);
  }

  private static void checkPort(int port, String flag) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(flag + " must be 0..65535, got " + port);
    }
  }
}
