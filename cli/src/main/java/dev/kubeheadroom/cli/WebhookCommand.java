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
import java.util.concurrent.Callable;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code headroom webhook}: the mutating admission webhook seeding birth limits (design §6.5). */
@Command(name = "webhook", mixinStandardHelpOptions = true,
    description = "Runs the admission webhook: sets a boosted CPU limit on pods at CREATE; never blocks.")
public final class WebhookCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin OpsOptions ops;

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "${env:HEADROOM_WEBHOOK_PORT:-9443}",
      description = "HTTPS port of /mutate-v1-pod (default: ${DEFAULT-VALUE}). Env: HEADROOM_WEBHOOK_PORT.")
  int port;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR", defaultValue = "${env:HEADROOM_WEBHOOK_CERT_DIR}",
      description = "Directory with tls.crt and tls.key (cert-manager); a self-signed certificate when absent "
          + "(the API server will not trust it: for local runs only). Env: HEADROOM_WEBHOOK_CERT_DIR.")
  Path certDir;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      start(runtime, connection, topics);
      return runtime.runUntilStopped();
    }
  }

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
