package dev.kubeheadroom.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.Ineligibility;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** One set of reason names: the gates carry the topology's (explain's), the webhook's own others. */
class AllowReasonTest {

  @Test
  void theWebhooksOwnReasonsAreNeverNamedAsAGate() {
    assertThat(Arrays.stream(AllowReason.values()).map(AllowReason::wireName))
        .doesNotContainAnyElementsOf(Arrays.stream(Ineligibility.values()).map(Ineligibility::wireName).toList());
  }

  @Test
  void everyGateJudgedAtCreateAndEveryOwnReasonIsCountedUnderItsName() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    WebhookMetrics metrics = new WebhookMetrics(registry);
    metrics.unchanged(Ineligibility.POD_LEVEL_RESOURCES.wireName());
    metrics.unchanged(AllowReason.NOTHING_TO_SEED.wireName());
    assertThat(registry.get("headroom.webhook.unchanged").tag("reason", "pod-level-resources").counter().count())
        .isEqualTo(1.0);
    assertThat(metrics.unchangedCount(Ineligibility.POD_LEVEL_RESOURCES)).isEqualTo(1.0);
    assertThat(metrics.unchangedCount(AllowReason.NOTHING_TO_SEED)).isEqualTo(1.0);
    assertThat(metrics.unchangedCount(Ineligibility.NOT_BURSTABLE)).isZero();
  }
}
