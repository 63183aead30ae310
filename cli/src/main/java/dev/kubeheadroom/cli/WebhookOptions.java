package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.ReloadingKeyManager;
import dev.kubeheadroom.ops.TlsMaterial;
import dev.kubeheadroom.ops.TlsMaterialException;
import dev.kubeheadroom.pipeline.WebhookSpec;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.webhook.WebhookSettings;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/** The webhook stage's own options (for {@code webhook} and {@code run}). */
public final class WebhookOptions {
  /** How often, at most, a handshake re-reads the certificate directory. */
  static final Duration CERT_CHECK_INTERVAL = Duration.ofSeconds(5);

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "${env:HEADROOM_WEBHOOK_PORT:-9443}",
      description = "HTTPS port of /mutate-v1-pod (default: ${DEFAULT-VALUE}). Env: HEADROOM_WEBHOOK_PORT.")
  int port;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR", defaultValue = "${env:HEADROOM_WEBHOOK_CERT_DIR}",
      description = "Directory with tls.crt and tls.key (cert-manager), re-read when they change; a self-signed certificate when absent "
          + "(the API server will not trust it: for local runs only). Env: HEADROOM_WEBHOOK_CERT_DIR.")
  Path certDir;

  /** The webhook stage from these options. */
  WebhookSpec spec(KafkaConnection connection, Topics topics) {
    return new WebhookSpec(WebhookSettings.of(connection.client(), topics, port, sslContext()));
  }

  /**
   * The serving certificate: reloaded from {@code --webhook-cert-dir} when cert-manager renews it
   * (the kubelet swaps the mounted files and the new CA is injected into the webhook
   * configuration at about the same time, so a certificate loaded once fails every admission
   * call after the first renewal). Checked more often than the metrics certificate: each
   * admission call that fails TLS is a pod admitted without its seeded limit.
   */
  SSLContext sslContext() {
    KeyManager keys;
    try {
      keys = certDir == null
          ? TlsMaterial.selfSigned(List.of("localhost"), Clock.systemUTC()).keyManager()
          : new ReloadingKeyManager("webhook", certDir, CERT_CHECK_INTERVAL, Clock.systemUTC());
    } catch (TlsMaterialException e) {
      throw new UserError("--webhook-cert-dir: " + e.getMessage());
    }
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keys}, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new UserError("--webhook-cert-dir: cannot build a TLS context: " + e.getMessage());
    }
  }
}
