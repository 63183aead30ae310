package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.ClusterStateReader;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.UnaryOperator;

/**
 * The webhook stage: the namespaces/config view read from Kafka ({@link ClusterStateReader}) plus the
 * HTTPS endpoint ({@link WebhookServer}). {@link #start} returns at once with both running; until
 * the topics are read to their end the endpoint already answers, admitting every pod unchanged.
 *
 * <pre>{@code
 * try (Webhook webhook = Webhook.start(WebhookSettings.of(kafka, topics, 9443, ssl), registry)) {
 *   ... // readiness probe: webhook.ready()
 * }
 * }</pre>
 */
public final class Webhook implements AutoCloseable {
  private final ClusterState state;
  private final ClusterStateReader reader;
  private final WebhookServer server;
  private final WebhookMetrics metrics;

  private Webhook(ClusterState state, ClusterStateReader reader, WebhookServer server,
      WebhookMetrics metrics) {
    this.state = state;
    this.reader = reader;
    this.server = server;
    this.metrics = metrics;
  }

  /**
   * Starts reading the topics and serving HTTPS.
   *
   * @throws java.io.UncheckedIOException when the port cannot be bound
   */
  public static Webhook start(WebhookSettings settings, MeterRegistry registry) {
    WebhookMetrics metrics = new WebhookMetrics(registry);
    ClusterStateReader reader = new ClusterStateReader("headroom-webhook-state",
        settings.kafka().clientConfig(), settings.topics(), UnaryOperator.identity(),
        reason -> metrics.unreadableRecord()).start();
    ClusterState state = reader.state();
    metrics.warmGauge(state::warm);
    WebhookServer server;
    try {
      server = WebhookServer.start(settings.port(), settings.sslContext(),
          new AdmissionHandler(state, metrics), metrics, settings.threads(),
          settings.maxBodyBytes(), settings.requestTimeout());
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
    return new Webhook(state, reader, server, metrics);
  }

  /**
   * Ready for traffic (readiness probe): serving and warm. A replica that is not ready still
   * answers (admitting unchanged), but Kubernetes routes API server calls to warm replicas.
   */
  public boolean ready() {
    return state.warm();
  }

  /** The bound HTTPS port. */
  public int port() {
    return server.port();
  }

  public ClusterState state() {
    return state;
  }

  public WebhookMetrics metrics() {
    return metrics;
  }

  @Override
  public void close() {
    server.close();
    reader.close();
  }
}
