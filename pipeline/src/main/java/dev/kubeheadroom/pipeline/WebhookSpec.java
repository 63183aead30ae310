package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.webhook.Webhook;
import dev.kubeheadroom.webhook.WebhookSettings;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The admission webhook: it never fails by itself (an unready state admits pods unchanged). */
public record WebhookSpec(WebhookSettings settings) implements StageSpec {
  public static final String NAME = "webhook";

  public WebhookSpec {
    Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Stage start(StageContext context) {
    Webhook webhook = Webhook.start(settings, context.registry());
    return new RunningStage(NAME, webhook::ready, Optional::empty, List.of(webhook));
  }
}
