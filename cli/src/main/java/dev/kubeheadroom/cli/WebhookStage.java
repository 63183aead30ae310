package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.TlsMaterial;
import dev.kubeheadroom.ops.TlsMaterialException;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.webhook.Webhook;
import dev.kubeheadroom.webhook.WebhookSettings;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/** The webhook stage's own options, and how it starts (for {@code webhook} and {@code run}). */
public final class WebhookStage {
  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "${env:HEADROOM_WEBHOOK_PORT:-9443}",
      description = "HTTPS port of /mutate-v1-pod (default: ${DEFAULT-VALUE}). Env: HEADROOM_WEBHOOK_PORT.")
  int port;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR", defaultValue = "${env:HEADROOM_WEBHOOK_CERT_DIR}",
      description = "Directory with tls.crt and tls.key (cert-manager); a self-signed certificate when absent "
          + "(the API server will not trust it: for local runs only). Env: HEADROOM_WEBHOOK_CERT_DIR.")
  Path certDir;

  Webhook start(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    WebhookSettings settings = WebhookSettings.of(connection.bootstrapServers(),
        new HashMap<>(connection.clientProperties()), topics, port, sslContext());
    Webhook webhook = runtime.own(Webhook.start(settings, runtime.registry));
    runtime.readiness.add("webhook", webhook::ready);
    return webhook;
  }

  SSLContext sslContext() {
    TlsMaterial material;
    try {
      material = certDir == null
          ? TlsMaterial.selfSigned(List.of("localhost"), Clock.systemUTC())
          : TlsMaterial.load(certDir);
    } catch (TlsMaterialException e) {
      throw new UserError("--webhook-cert-dir: " + e.getMessage());
    }
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {material.keyManager()}, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new UserError("--webhook-cert-dir: cannot build a TLS context: " + e.getMessage());
    }
  }
}
