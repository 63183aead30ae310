package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * What the webhook is started with; parsed once at the edge (the CLI) and passed down.
 *
 * @param kafka Kafka's address, and the client properties merged into the state consumer's
 *     config (SASL/SSL)
 * @param topics topic names (the {@code namespaces} and {@code config} topics are read)
 * @param port HTTPS port, default {@value #DEFAULT_PORT}; 0 binds any free port (tests)
 * @param sslContext the serving certificate (the caller loads {@code tls.crt}/{@code tls.key})
 * @param threads request threads, default {@value #DEFAULT_THREADS}
 * @param maxBodyBytes largest AdmissionReview read, default 3 MiB (the API server's own request
 *     limit; a pod is at most ~1.5 MiB in etcd); larger gets 413
 * @param requestTimeout an exchange still open after this is closed, default 2 s (the chart's
 *     {@code timeoutSeconds} is 3)
 */
public record WebhookSettings(
    KafkaClientSettings kafka,
    Topics topics,
    int port,
    SSLContext sslContext,
    int threads,
    int maxBodyBytes,
    Duration requestTimeout) {

  public static final int DEFAULT_PORT = 9443;
  public static final int DEFAULT_THREADS = 4;
  public static final int DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

  public WebhookSettings {
    Objects.requireNonNull(kafka, "kafka");
    Objects.requireNonNull(topics, "topics");
    Objects.requireNonNull(sslContext, "sslContext");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    if (maxBodyBytes < 1024) {
      throw new IllegalArgumentException("maxBodyBytes must be >= 1024, got " + maxBodyBytes);
    }
    if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive");
    }
  }

  /** The defaults for everything but the connection, topics, port and certificate. */
  public static WebhookSettings of(KafkaClientSettings kafka, Topics topics, int port,
      SSLContext sslContext) {
    return new WebhookSettings(kafka, topics, port, sslContext,
        DEFAULT_THREADS, DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT);
  }
}
